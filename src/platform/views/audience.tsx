import type { AudienceMember, AudienceRole, AudienceVia } from '../audience.js';
import { type MessageKey, say } from '../i18n/index.js';
import { ForViewer } from './for-viewer.js';

const ROLE_WORDS: Record<AudienceRole, MessageKey> = {
  change: 'audience.role_change',
  tick: 'audience.role_tick',
  read: 'audience.role_read',
};

function viaWords(via: AudienceVia, groupName: string | null): string {
  if (via === 'owner') return say('audience.via_owner');
  if (via === 'share') return say('audience.via_share');
  return groupName ? say({ key: 'audience.via_group', values: { group: groupName } }) : say('audience.via_some_group');
}

/**
 * "Who can see this": everyone who may read an object, what each may do, and why (owner, shared
 * by name, member of the group). It shows what the feature's access rules answered
 * (platform/audience.ts), and knows nothing of notes or lists: `noun` names the object.
 */
export function AudiencePanel({ members, viewerId, noun, groupName }: {
  members: AudienceMember[];
  viewerId: number;
  /**
   * "note", "to-do list"..., translated by the caller, in the form the language puts after
   * "can read this" (Ukrainian: the accusative, `нотатку`).
   */
  noun: string;
  /** The object's group, if it has one: its members are among `members`. */
  groupName: string | null;
}) {
  const changers = members.filter((member) => member.role === 'change').length;
  const tickers = members.filter((member) => member.role === 'tick').length;
  return (
    <section class="audience" aria-labelledby="audience-heading">
      <h2 id="audience-heading">{say('audience.heading')}</h2>
      <p>
        {say({ key: 'audience.readers', values: { count: members.length, noun } })}; {say({ key: 'audience.changers', values: { count: changers } })}
        {tickers ? <>, {say({ key: 'audience.tickers', values: { count: tickers } })}</> : null}.
        {groupName ? <> {say({ key: 'audience.group', values: { group: groupName } })}</> : null}
      </p>
      <ul class="audience-list">
        {members.map((member) => (
          <li>
            <span class="audience-name">
              {member.username}
              <ForViewer userId={member.id} viewerId={viewerId}>
                <span class="badge">{say('audience.you')}</span>
              </ForViewer>
            </span>
            <span class={`audience-role role-${member.role}`}>{say(ROLE_WORDS[member.role])}</span>
            <small class="audience-via">{member.via.map((via) => viaWords(via, groupName)).join(' · ')}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
