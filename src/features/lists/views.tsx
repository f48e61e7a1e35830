import type { ComponentChildren } from 'preact';
import type { SharePermission } from '../../db/schema.js';
import { CsrfField, Field, FormAlert, Select } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { say } from '../../platform/i18n/index.js';
import type { GroupChoice, SharedUser } from './sharing.js';
import type { ListKind } from './kind.js';
import type { ListCard } from './service.js';

/** A form shown again with what was typed and what is wrong with it. */
export interface FormState {
  values?: FormValues;
  errors?: FormErrors;
}

/** What the pages of every kind need to know of it: where its pages live, and its name for the catalogue's selects. */
export type KindPaths = Pick<ListKind, 'name' | 'base'>;

/** "Shared by alice", "Shared by alice with group Flat 3": who gives the reader access. */
export function SharedBy({ list }: { list: Pick<ListCard, 'owner_name' | 'group_name'> }) {
  return (
    <span class="shared-by">
      {say('lists.shared_by')} <strong>{list.owner_name}</strong>
      {list.group_name ? <> {say('lists.with_group')} <strong>{list.group_name}</strong></> : null}
    </span>
  );
}

/** For the owner: who else can read the list. */
function Audience({ list }: { list: ListCard }) {
  const people = list.share_count === 0 ? null : say({ key: 'lists.shared_with_count', values: { count: list.share_count } });
  if (!people && !list.group_name) return <> · {say('lists.only_you')}</>;
  return (
    <>
      {people ? <> · {people}</> : null}
      {list.group_name ? <> · {say('lists.group')} <strong>{list.group_name}</strong></> : null}
    </>
  );
}

function ListCards({ kind, lists, mine }: { kind: KindPaths; lists: ListCard[]; mine: boolean }) {
  return (
    <ul class="list-cards">
      {lists.map((list) => (
        <li>
          <a href={`${kind.base}/${list.id}/`}>{list.title}</a>
          <small>
            {say(list.detail)}
            {mine ? <Audience list={list} /> : <> · <SharedBy list={list} /></>}
          </small>
        </li>
      ))}
    </ul>
  );
}

/** The index of one kind: the caller's own lists, then those others share with them; `children` come first (to-do's "Assigned to me"). */
export function ListIndexPage({ ctx, kind, lists, children }: { ctx: ViewContext; kind: KindPaths; lists: ListCard[]; children?: ComponentChildren }) {
  const userId = ctx.user?.id;
  const mine = lists.filter((list) => list.owner_id === userId);
  const shared = lists.filter((list) => list.owner_id !== userId);
  const which = { kind: kind.name };
  return (
    <Layout ctx={ctx} title={ctx.t('lists.index_title', which)}>
      <header class="page-header">
        <h1>{ctx.t('lists.index_title', which)}</h1>
        <a href={`${kind.base}/new/`} role="button">{ctx.t('lists.new_button', which)}</a>
      </header>
      {children}
      <section aria-labelledby="mine">
        <h2 id="mine">{ctx.t('lists.mine')}</h2>
        {mine.length ? <ListCards kind={kind} lists={mine} mine /> : (
          <p class="empty">{ctx.t('lists.mine_empty', which)} <a href={`${kind.base}/new/`}>{ctx.t('lists.create_first', which)}</a>.</p>
        )}
      </section>
      <section aria-labelledby="shared">
        <h2 id="shared">{ctx.t('lists.shared_with_me')}</h2>
        {shared.length ? <ListCards kind={kind} lists={shared} mine={false} /> : (
          <p class="empty">{ctx.t('lists.shared_empty', which)}</p>
        )}
      </section>
    </Layout>
  );
}

/** The permission select's choices, in the page's language. */
export function permissionChoices(ctx: ViewContext) {
  return [
    { value: 'read', label: ctx.t('lists.choice_read') },
    { value: 'tick', label: ctx.t('lists.choice_tick') },
  ];
}

/** A button that gives an existing share the other permission (the add form, for that user). */
function PermissionSwitch({ ctx, action, user }: { ctx: ViewContext; action: string; user: SharedUser }) {
  const next: SharePermission = user.permission === 'tick' ? 'read' : 'tick';
  return (
    <form method="post" action={action} class="inline">
      <CsrfField ctx={ctx} />
      <input type="hidden" name="username" value={user.username} />
      <input type="hidden" name="action" value="add" />
      <input type="hidden" name="permission" value={next} />
      <button type="submit" class="secondary outline small">{ctx.t(next === 'tick' ? 'lists.let_tick' : 'lists.make_read_only')}</button>
    </form>
  );
}

/**
 * A list's group and what its members may do, on its new and edit forms: one of the owner's
 * groups (`groups`), or none. A list belongs to a group, or is shared with people by name.
 */
export function GroupFields({ ctx, kind, groups, values, errors }: { ctx: ViewContext; kind: KindPaths; groups: GroupChoice[]; values: FormValues; errors: FormErrors }) {
  const choices = [{ value: '', label: ctx.t('lists.no_group') }, ...groups.map((group) => ({ value: String(group.id), label: group.name }))];
  return (
    <>
      <Select name="group" label={ctx.t('lists.group_label')} value={values.group} choices={choices} errors={errors}
        help={groups.length ? ctx.t('lists.group_help') : ctx.t('lists.group_help_none', { kind: kind.name })} />
      <Select name="group_permission" label={ctx.t('lists.group_permission_label')} value={values.group_permission ?? 'read'} choices={permissionChoices(ctx)} errors={errors}
        help={ctx.t('lists.group_permission_help')} />
    </>
  );
}

/**
 * The owner's sharing controls: who can read the list and what each may do, its group and the
 * group's permission (chosen on the list's form), add a user by name with a permission, change
 * or remove one.
 */
export function SharePanel({ ctx, kind, listId, users, group = null, values = {}, errors = {} }: {
  ctx: ViewContext; kind: KindPaths; listId: number; users: SharedUser[]; group?: { name: string; permission: SharePermission } | null;
  values?: FormValues; errors?: FormErrors;
}) {
  const action = `${kind.base}/${listId}/share/`;
  return (
    <section class="share-panel" aria-labelledby="sharing">
      <h2 id="sharing">{ctx.t('lists.sharing')}</h2>
      {group ? (
        <p class="shared-group">
          {ctx.t('lists.members_of_group')} <strong>{group.name}</strong> {ctx.t('lists.group_permission', { permission: group.permission })}.
        </p>
      ) : null}
      {users.length ? (
        <ul class="shared-users">
          {users.map((user) => (
            <li>
              <strong>{user.username}</strong> <span class="permission">{ctx.t('lists.user_permission', { permission: user.permission })}</span>{' '}
              <PermissionSwitch ctx={ctx} action={action} user={user} />{' '}
              <form method="post" action={action} class="inline">
                <CsrfField ctx={ctx} />
                <input type="hidden" name="username" value={user.username} />
                <input type="hidden" name="action" value="remove" />
                <button type="submit" class="secondary outline small" aria-label={ctx.t('lists.stop_sharing_with', { username: user.username })}>{ctx.t('lists.remove')}</button>
              </form>
            </li>
          ))}
        </ul>
      ) : group ? null : (
        <p class="empty">{ctx.t('lists.only_you_see')}</p>
      )}
      {group ? null : (
        <p><small>{ctx.t('lists.group_hint')} <a href={`${kind.base}/${listId}/edit/`}>{ctx.t('lists.group_hint_link')}</a>.</small></p>
      )}
      <form method="post" action={action} novalidate>
        <CsrfField ctx={ctx} />
        <input type="hidden" name="action" value="add" />
        <FormAlert errors={errors} />
        <div class="grid">
          <Field name="username" label={ctx.t('lists.share_username')} value={values.username} errors={errors} required maxLength={150} autocomplete="off" />
          <Select name="permission" label={ctx.t('lists.they_may')} value={values.permission ?? 'read'} choices={permissionChoices(ctx)} errors={errors}
            help={ctx.t('lists.share_help')} />
        </div>
        <button type="submit" class="secondary">{ctx.t('lists.share_button')}</button>
      </form>
    </section>
  );
}

export function DeleteListPage({ ctx, kind, list }: { ctx: ViewContext; kind: KindPaths; list: { id: number; title: string } }) {
  return (
    <Layout ctx={ctx} title={ctx.t('lists.delete_title', { title: list.title })}>
      <article class="narrow">
        <h1>{ctx.t('lists.delete_heading', { title: list.title })}</h1>
        <p>{ctx.t('lists.delete_consequence', { kind: kind.name })}</p>
        <form method="post" action={`${kind.base}/${list.id}/delete/`}>
          <CsrfField ctx={ctx} />
          <button type="submit" class="danger">{ctx.t('lists.delete_button', { kind: kind.name })}</button>
          <a href={`${kind.base}/${list.id}/`} role="button" class="secondary outline">{ctx.t('lists.cancel')}</a>
        </form>
      </article>
    </Layout>
  );
}
