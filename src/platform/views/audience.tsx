import type { AudienceMember, AudienceRole, AudienceVia } from '../audience.js';

const ROLE_WORDS: Record<AudienceRole, string> = {
  change: 'can change it',
  tick: 'can tick and add items',
  read: 'can read',
};

function viaWords(via: AudienceVia, groupName: string | null): string {
  if (via === 'owner') return 'owner';
  if (via === 'share') return 'shared by name';
  return groupName ? `member of ${groupName}` : 'group member';
}

const people = (count: number) => (count === 1 ? '1 person' : `${count} people`);

/**
 * "Who can see this": everyone who may read an object, what each may do, and why (owner, shared
 * by name, member of the group). It shows what the feature's access rules answered
 * (platform/audience.ts), and knows nothing of notes or lists: `noun` names the object.
 */
export function AudiencePanel({ members, viewerId, noun, groupName }: {
  members: AudienceMember[];
  viewerId: number;
  /** "note", "to-do list"... */
  noun: string;
  /** The object's group, if it has one: its members are among `members`. */
  groupName: string | null;
}) {
  const changers = members.filter((member) => member.role === 'change').length;
  const tickers = members.filter((member) => member.role === 'tick').length;
  return (
    <section class="audience" aria-labelledby="audience-heading">
      <h2 id="audience-heading">Who can see this</h2>
      <p>
        {people(members.length)} can read this {noun}; {people(changers)} can change it
        {tickers ? <>, {people(tickers)} can tick and add items</> : null}.
        {groupName ? <> It is shared with the group <strong>{groupName}</strong>: its members are among them.</> : null}
      </p>
      <ul class="audience-list">
        {members.map((member) => (
          <li>
            <span class="audience-name">
              {member.username}
              {member.id === viewerId ? <span class="badge">you</span> : null}
            </span>
            <span class={`audience-role role-${member.role}`}>{ROLE_WORDS[member.role]}</span>
            <small class="audience-via">{member.via.map((via) => viaWords(via, groupName)).join(' · ')}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
