import { CsrfField, Field, FieldErrors, FormAlert, type FormErrors, type FormValues } from '../../platform/views/forms.js';
import { unreadBadge } from '../../platform/views/bell.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import type { ActivityEntry } from '../../platform/activity.js';
import { GroupActivity } from './activity-views.js';
import type { ShelfSection } from '../../platform/group-shelf.js';
import { Time } from '../../platform/views/controls.js';
import type { GroupMember, GroupSummary } from './repository.js';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function GroupListPage({ ctx, groups }: { ctx: ViewContext; groups: (GroupSummary & { unread: number })[] }) {
  return (
    <Layout ctx={ctx} title="Groups">
      <div class="page-header">
        <h1>Your groups</h1>
        <a href="/groups/new/" role="button">New group</a>
      </div>
      {groups.length === 0 ? (
        <p class="empty">You are not in any group yet. <a href="/groups/new/">Create a group</a> and add people by their username to share notes and chat.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Owner</th>
                <th scope="col">Members</th>
                <th scope="col">Chat</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr>
                  <td><a href={`/groups/${group.id}/`}>{group.name}</a></td>
                  <td>{group.owner_id === ctx.user?.id ? 'you' : group.owner}</td>
                  <td>{group.member_count}</td>
                  <td>
                    <a href={`/groups/${group.id}/chat/`}>Open chat<span class="visually-hidden"> of {group.name}</span></a>
                    {group.unread > 0 ? <span class="badge badge-group unread-count">{unreadBadge(group.unread)} new<span class="visually-hidden"> {group.unread === 1 ? 'message' : 'messages'}</span></span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}

export function GroupFormPage({ ctx, values = {}, errors = {} }: { ctx: ViewContext; values?: FormValues; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title="New group">
      <article class="narrow">
        <h1>New group</h1>
        <form method="post" action="/groups/new/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label="Name" value={values.name} errors={errors} required maxLength={150} autofocus
            help="Unique across the site. You become its owner and first member." />
          <button type="submit">Create group</button>
        </form>
        <p><a href="/groups/">Back to your groups</a></p>
      </article>
    </Layout>
  );
}

interface GroupPageProps {
  ctx: ViewContext;
  group: GroupSummary;
  members: GroupMember[];
  activity: ActivityEntry[];
  shared: ShelfSection[];
  values?: FormValues;
  errors?: FormErrors;
}

function MemberRow({ ctx, group, member, isOwner }: { ctx: ViewContext; group: GroupSummary; member: GroupMember; isOwner: boolean }) {
  const memberIsOwner = member.id === group.owner_id;
  return (
    <li class="member">
      <span>
        {member.username}
        {memberIsOwner ? <strong class="badge">owner</strong> : null}
        {member.id === ctx.user?.id ? <span class="badge">you</span> : null}
      </span>
      {isOwner && !memberIsOwner ? (
        <a href={`/groups/${group.id}/members/${member.id}/remove/`} role="button" class="secondary outline small" data-confirm="">
          Remove<span class="visually-hidden"> {member.username}</span>
        </a>
      ) : null}
    </li>
  );
}

/** What is shared with the group, one section per kind, newest first (platform/group-shelf.ts). */
function SharedSections({ sections }: { sections: ShelfSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <section aria-labelledby={`shared-${section.kind}-heading`} class="group-shelf">
          <h2 id={`shared-${section.kind}-heading`}>{section.heading}</h2>
          {section.items.length === 0 ? (
            <p class="empty">None shared with the group yet.</p>
          ) : (
            <ul class="activity-list">
              {section.items.map((item) => (
                <li>
                  <a href={item.url}>{item.title}</a> <small>updated <Time ms={item.updated_at} /></small>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </>
  );
}

export function GroupPage({ ctx, group, members, activity, shared, values = {}, errors = {} }: GroupPageProps) {
  const isOwner = group.owner_id === ctx.user?.id;
  return (
    <Layout ctx={ctx} title={group.name}>
      <div class="page-header">
        <h1>{group.name}</h1>
        <a href={`/groups/${group.id}/chat/`} role="button">Open chat</a>
      </div>
      <p>
        Owned by {isOwner ? 'you' : group.owner} · {plural(group.member_count, 'member', 'members')}
        {isOwner ? <> · <a href={`/groups/${group.id}/edit/`}>Rename<span class="visually-hidden"> the group</span></a></> : null}
      </p>
      <SharedSections sections={shared} />
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <FieldErrors id="id_user_pk_errors" messages={errors.user_pk ?? []} />
        <ul class="member-list">
          {members.map((member) => <MemberRow ctx={ctx} group={group} member={member} isOwner={isOwner} />)}
        </ul>
      </section>
      <GroupActivity events={activity} />
      {isOwner ? (
        <section aria-labelledby="add-heading">
          <h2 id="add-heading">Add a member</h2>
          <form method="post" action={`/groups/${group.id}/members/`} novalidate>
            <CsrfField ctx={ctx} />
            <input type="hidden" name="action" value="add" />
            <FormAlert errors={errors} />
            <Field name="username" label="Username" value={values.username} errors={errors} required maxLength={150} autocomplete="off" />
            <button type="submit">Add member</button>
          </form>
          <p><a href={`/groups/${group.id}/delete/`} class="danger-link" data-confirm="">Delete this group…</a></p>
        </section>
      ) : (
        <p><a href={`/groups/${group.id}/leave/`} role="button" class="secondary" data-confirm="">Leave this group</a></p>
      )}
    </Layout>
  );
}

export function GroupDeletePage({ ctx, group }: { ctx: ViewContext; group: { id: number; name: string } }) {
  return (
    <Layout ctx={ctx} title={`Delete ${group.name}`}>
      <article class="narrow">
        <h1>Delete “{group.name}”?</h1>
        <p>The group, its members list and its chat history are deleted. Notes and shopping lists shared with the group stay with their owners, no longer shared with it.</p>
        <form method="post" action={`/groups/${group.id}/delete/`}>
          <CsrfField ctx={ctx} />
          <button type="submit" class="danger">Delete group</button>
        </form>
        <p><a href={`/groups/${group.id}/`}>Cancel</a></p>
      </article>
    </Layout>
  );
}
