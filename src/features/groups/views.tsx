import { say } from '../../platform/i18n/index.js';
import { CsrfField, Field, FieldErrors, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { countBadge } from '../../platform/navigation.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { ActivityEntry } from './activity.js';
import { GroupActivity } from './activity-views.js';
import type { SharedSection } from './shared-objects.js';
import { Time } from '../../platform/views/controls.js';
import type { GroupMember, GroupSummary } from './repository.js';

/** A group's unread chat messages ("3 new"), nothing when there are none: on /groups/ and /chat/. */
export function UnreadCount({ ctx, count }: { ctx: ViewContext; count: number }) {
  if (count === 0) return null;
  return (
    <span class="badge badge-group unread-count">
      {countBadge(count)} {ctx.t('groups.unread_new', { count })}
      <span class="visually-hidden"> {ctx.t('groups.unread_messages', { count })}</span>
    </span>
  );
}

export function GroupListPage({ ctx, groups }: { ctx: ViewContext; groups: (GroupSummary & { unread: number })[] }) {
  return (
    <Layout ctx={ctx} title={ctx.t('groups.title')}>
      <div class="page-header">
        <h1>{ctx.t('groups.heading')}</h1>
        <a href="/groups/new/" role="button">{ctx.t('groups.new')}</a>
      </div>
      {groups.length === 0 ? (
        <p class="empty">{ctx.t('groups.empty')} <a href="/groups/new/">{ctx.t('groups.empty_create')}</a> {ctx.t('groups.empty_rest')}</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{ctx.t('groups.column_group')}</th>
                <th scope="col">{ctx.t('groups.column_owner')}</th>
                <th scope="col">{ctx.t('groups.column_members')}</th>
                <th scope="col">{ctx.t('groups.column_chat')}</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr>
                  <td><a href={`/groups/${group.id}/`}>{group.name}</a></td>
                  <td>{group.owner_id === ctx.user?.id ? ctx.t('groups.owner_you') : group.owner}</td>
                  <td>{group.member_count}</td>
                  <td>
                    <a href={`/groups/${group.id}/chat/`}>{ctx.t('groups.open_chat')}<span class="visually-hidden"> {ctx.t('groups.open_chat_of', { group: group.name })}</span></a>
                    <UnreadCount ctx={ctx} count={group.unread} />
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
    <Layout ctx={ctx} title={ctx.t('group_form.title')}>
      <article class="narrow">
        <h1>{ctx.t('group_form.title')}</h1>
        <form method="post" action="/groups/new/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label={ctx.t('group_form.name')} value={values.name} errors={errors} required maxLength={150} autofocus
            help={ctx.t('group_form.name_help')} />
          <button type="submit">{ctx.t('group_form.create')}</button>
        </form>
        <p><a href="/groups/">{ctx.t('group_form.back')}</a></p>
      </article>
    </Layout>
  );
}

interface GroupPageProps {
  ctx: ViewContext;
  group: GroupSummary;
  members: GroupMember[];
  activity: ActivityEntry[];
  shared: SharedSection[];
  values?: FormValues;
  errors?: FormErrors;
}

function MemberRow({ ctx, group, member, isOwner }: { ctx: ViewContext; group: GroupSummary; member: GroupMember; isOwner: boolean }) {
  const memberIsOwner = member.id === group.owner_id;
  return (
    <li class="member">
      <span>
        {member.username}
        {memberIsOwner ? <strong class="badge">{ctx.t('group.badge_owner')}</strong> : null}
        {member.id === ctx.user?.id ? <span class="badge">{ctx.t('group.badge_you')}</span> : null}
      </span>
      {isOwner && !memberIsOwner ? (
        <a href={`/groups/${group.id}/members/${member.id}/remove/`} role="button" class="secondary outline small" data-confirm="">
          {ctx.t('group.remove')}<span class="visually-hidden"> {member.username}</span>
        </a>
      ) : null}
    </li>
  );
}

/** What is shared with the group, one section per kind, newest first (shared-objects.ts). */
function SharedSections({ ctx, sections }: { ctx: ViewContext; sections: SharedSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <section aria-labelledby={`shared-${section.kind}-heading`} class="group-shelf">
          <h2 id={`shared-${section.kind}-heading`}>{say(section.heading)}</h2>
          {section.items.length === 0 ? (
            <p class="empty">{ctx.t('group.shelf_empty')}</p>
          ) : (
            <ul class="activity-list">
              {section.items.map((item) => (
                <li>
                  <a href={item.url}>{item.title}</a> <small>{ctx.t('group.updated')} <Time ms={item.updated_at} timeZone={ctx.user?.timezone ?? 'UTC'} /></small>
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
        <a href={`/groups/${group.id}/chat/`} role="button">{ctx.t('groups.open_chat')}</a>
      </div>
      <p>
        {isOwner ? ctx.t('group.owned_by_you') : ctx.t('group.owned_by', { owner: group.owner })} · {ctx.t('group.member_count', { count: group.member_count })}
        {isOwner ? <> · <a href={`/groups/${group.id}/edit/`}>{ctx.t('group.rename')}<span class="visually-hidden"> {ctx.t('group.rename_hidden')}</span></a></> : null}
      </p>
      <SharedSections ctx={ctx} sections={shared} />
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">{ctx.t('group.members')}</h2>
        <FieldErrors id="id_user_pk_errors" messages={errors.user_pk ?? []} />
        <ul class="member-list">
          {members.map((member) => <MemberRow ctx={ctx} group={group} member={member} isOwner={isOwner} />)}
        </ul>
      </section>
      <GroupActivity ctx={ctx} events={activity} />
      {isOwner ? (
        <section aria-labelledby="add-heading">
          <h2 id="add-heading">{ctx.t('group.add_heading')}</h2>
          <form method="post" action={`/groups/${group.id}/members/`} novalidate>
            <CsrfField ctx={ctx} />
            <input type="hidden" name="action" value="add" />
            <FormAlert errors={errors} />
            <Field name="username" label={ctx.t('group.username')} value={values.username} errors={errors} required maxLength={150} autocomplete="off" />
            <button type="submit">{ctx.t('group.add')}</button>
          </form>
          <p><a href={`/groups/${group.id}/delete/`} class="danger-link" data-confirm="">{ctx.t('group.delete_link')}</a></p>
        </section>
      ) : (
        <p><a href={`/groups/${group.id}/leave/`} role="button" class="secondary" data-confirm="">{ctx.t('group.leave_link')}</a></p>
      )}
    </Layout>
  );
}

export function GroupDeletePage({ ctx, group }: { ctx: ViewContext; group: { id: number; name: string } }) {
  return (
    <Layout ctx={ctx} title={ctx.t('group_delete.title', { name: group.name })}>
      <article class="narrow">
        <h1>{ctx.t('group_delete.heading', { name: group.name })}</h1>
        <p>{ctx.t('group_delete.body')}</p>
        <form method="post" action={`/groups/${group.id}/delete/`}>
          <CsrfField ctx={ctx} />
          <button type="submit" class="danger">{ctx.t('group_delete.button')}</button>
        </form>
        <p><a href={`/groups/${group.id}/`}>{ctx.t('group_delete.cancel')}</a></p>
      </article>
    </Layout>
  );
}
