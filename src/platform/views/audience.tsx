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

/** The role every member who reads through the group alone has, if they all have one; null otherwise. */
function groupRole(members: AudienceMember[]): AudienceRole | null {
  const roles = new Set(members.filter((member) => member.via.length === 1 && member.via[0] === 'group').map((member) => member.role));
  return roles.size === 1 ? [...roles][0]! : null;
}

/**
 * "Who can see this": everyone who may read an object, what each may do, and why (owner, shared
 * by name, member of the group). It shows what the feature's access rules answered
 * (platform/audience.ts), and knows of notes and lists only their words: `kind` names the object.
 *
 * Only the owner is shown everyone by name. Anyone else who reads the object is shown its owner,
 * its group with how many of its members read it, and how many people it is shared with by name:
 * whom the owner shared it with by name is the owner's to know, and a group's members are shown
 * to its members on the group's own page, not to whoever reads one of its objects.
 */
export function AudiencePanel({ members, viewerId, kind, groupName }: {
  members: AudienceMember[];
  viewerId: number;
  /**
   * What is read: a select value of audience.readers, which words it as the language wants it
   * after "can read this" (Ukrainian: the accusative, `нотатку`).
   */
  kind: 'note' | 'todo' | 'shopping';
  /** The object's group, if it has one: its members are among `members`. */
  groupName: string | null;
}) {
  const changers = members.filter((member) => member.role === 'change').length;
  const tickers = members.filter((member) => member.role === 'tick').length;
  const owners = members.filter((member) => member.via.includes('owner'));
  const ownerView = owners.some((owner) => owner.id === viewerId);
  return (
    <section class="audience" aria-labelledby="audience-heading">
      <h2 id="audience-heading">{say('audience.heading')}</h2>
      <p>
        {say({ key: 'audience.readers', values: { count: members.length, kind } })}; {say({ key: 'audience.changers', values: { count: changers } })}
        {tickers ? <>, {say({ key: 'audience.tickers', values: { count: tickers } })}</> : null}.
        {groupName ? <> {say({ key: 'audience.group', values: { group: groupName } })}</> : null}
      </p>
      {ownerView ? <PeopleByName members={members} viewerId={viewerId} groupName={groupName} /> : <PeopleCounted members={members} owners={owners} viewerId={viewerId} groupName={groupName} />}
    </section>
  );
}

/** The owner's list: one row a person. */
function PeopleByName({ members, viewerId, groupName }: { members: AudienceMember[]; viewerId: number; groupName: string | null }) {
  return (
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
  );
}

/**
 * Everyone else's: the owner by name, then the group and the shares by name as counts, then the
 * reader's own line, in a slot each reader alone is shown (a page kept once for all its readers
 * holds every reader's, and each copy sent blanks all but its viewer's: for-viewer.tsx).
 */
function PeopleCounted({ members, owners, viewerId, groupName }: { members: AudienceMember[]; owners: AudienceMember[]; viewerId: number; groupName: string | null }) {
  const inGroup = members.filter((member) => member.via.includes('group'));
  const byName = members.filter((member) => member.via.includes('share')).length;
  const role = groupRole(members);
  return (
    <>
      <ul class="audience-list">
        {owners.map((owner) => (
          <li>
            <span class="audience-name">{owner.username}</span>
            <span class={`audience-role role-${owner.role}`}>{say(ROLE_WORDS[owner.role])}</span>
            <small class="audience-via">{owner.via.map((via) => viaWords(via, groupName)).join(' · ')}</small>
          </li>
        ))}
        {inGroup.length > 0 ? (
          <li>
            <span class="audience-name">
              {groupName
                ? say({ key: 'audience.group_members', values: { count: inGroup.length, group: groupName } })
                : say({ key: 'audience.group_members_unnamed', values: { count: inGroup.length } })}
            </span>
            <span class={`audience-role role-${role ?? 'mixed'}`}>{role ? say(ROLE_WORDS[role]) : ''}</span>
          </li>
        ) : null}
        {byName > 0 ? (
          <li>
            <span class="audience-name">{say({ key: 'audience.shared_by_name', values: { count: byName } })}</span>
            <span class="audience-role role-mixed"></span>
            <small class="audience-via">{say('audience.names_for_owner')}</small>
          </li>
        ) : null}
      </ul>
      <p class="audience-self">
        {members.filter((member) => !member.via.includes('owner')).map((member) => (
          <ForViewer userId={member.id} viewerId={viewerId}>
            <span class="audience-name">{member.username}<span class="badge">{say('audience.you')}</span></span>{' '}
            <span class={`audience-role role-${member.role}`}>{say(ROLE_WORDS[member.role])}</span>{' '}
            <small class="audience-via">{member.via.map((via) => viaWords(via, groupName)).join(' · ')}</small>
          </ForViewer>
        ))}
      </p>
    </>
  );
}
