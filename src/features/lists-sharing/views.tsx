import type { ComponentChildren } from 'preact';
import type { SharePermission } from '../../db/schema.js';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues, Select } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { type GroupChoice, PERMISSION_LABELS, type SharedUser } from './sharing.js';

/** A form shown again with what was typed and what is wrong with it. */
export interface FormState {
  values?: FormValues;
  errors?: FormErrors;
}

/** What differs between the two kinds of list on the pages they share. */
export interface ListKind {
  /** `/todo` or `/shopping` */
  base: string;
  /** "To-do lists" */
  plural: string;
  /** "to-do list" */
  noun: string;
}

export interface ListSummary {
  id: number;
  title: string;
  /** A line about the contents, e.g. "3 open of 5". */
  detail: string;
  owner_id: number;
  owner_name: string;
  group_name: string | null;
  /** How many users the list is shared with by name. */
  share_count: number;
}

/** "Shared by alice", "Shared by alice with group Flat 3": who gives the reader access. */
export function SharedBy({ list }: { list: Pick<ListSummary, 'owner_name' | 'group_name'> }) {
  return (
    <span class="shared-by">
      Shared by <strong>{list.owner_name}</strong>
      {list.group_name ? <> with group <strong>{list.group_name}</strong></> : null}
    </span>
  );
}

/** For the owner: who else can read the list. */
function Audience({ list }: { list: ListSummary }) {
  const people = list.share_count === 0 ? null : list.share_count === 1 ? 'shared with 1 person' : `shared with ${list.share_count} people`;
  if (!people && !list.group_name) return <> · only you</>;
  return (
    <>
      {people ? <> · {people}</> : null}
      {list.group_name ? <> · group <strong>{list.group_name}</strong></> : null}
    </>
  );
}

function ListCards({ kind, lists, mine }: { kind: ListKind; lists: ListSummary[]; mine: boolean }) {
  return (
    <ul class="list-cards">
      {lists.map((list) => (
        <li>
          <a href={`${kind.base}/${list.id}/`}>{list.title}</a>
          <small>
            {list.detail}
            {mine ? <Audience list={list} /> : <> · <SharedBy list={list} /></>}
          </small>
        </li>
      ))}
    </ul>
  );
}

/** The index of one kind: the caller's own lists, then those others share with them; `children` come first (to-do's "Assigned to me"). */
export function ListIndexPage({ ctx, kind, lists, children }: { ctx: ViewContext; kind: ListKind; lists: ListSummary[]; children?: ComponentChildren }) {
  const userId = ctx.user?.id;
  const mine = lists.filter((list) => list.owner_id === userId);
  const shared = lists.filter((list) => list.owner_id !== userId);
  return (
    <Layout ctx={ctx} title={kind.plural}>
      <header class="page-header">
        <h1>{kind.plural}</h1>
        <a href={`${kind.base}/new/`} role="button">New {kind.noun}</a>
      </header>
      {children}
      <section aria-labelledby="mine">
        <h2 id="mine">Mine</h2>
        {mine.length ? <ListCards kind={kind} lists={mine} mine /> : (
          <p class="empty">You have no {kind.noun}s yet. <a href={`${kind.base}/new/`}>Create your first {kind.noun}</a>.</p>
        )}
      </section>
      <section aria-labelledby="shared">
        <h2 id="shared">Shared with me</h2>
        {shared.length ? <ListCards kind={kind} lists={shared} mine={false} /> : (
          <p class="empty">Nobody shares a {kind.noun} with you yet. When someone does, it shows up here.</p>
        )}
      </section>
    </Layout>
  );
}

export const PERMISSION_CHOICES = [
  { value: 'read', label: 'Read only' },
  { value: 'tick', label: 'Read, tick and add items' },
];

/** A button that gives an existing share the other permission (the add form, for that user). */
function PermissionSwitch({ ctx, action, user }: { ctx: ViewContext; action: string; user: SharedUser }) {
  const next: SharePermission = user.permission === 'tick' ? 'read' : 'tick';
  return (
    <form method="post" action={action} class="inline">
      <CsrfField ctx={ctx} />
      <input type="hidden" name="username" value={user.username} />
      <input type="hidden" name="action" value="add" />
      <input type="hidden" name="permission" value={next} />
      <button type="submit" class="secondary outline small">{next === 'tick' ? 'Let them tick' : 'Make read only'}</button>
    </form>
  );
}

/** Shares the list with every member of one of the owner's groups, as ordinary shares. */
function GroupShareForm({ ctx, action, groups, values, errors }: { ctx: ViewContext; action: string; groups: GroupChoice[]; values: FormValues; errors: FormErrors }) {
  const choices = groups.map((choice) => ({ value: String(choice.id), label: choice.name }));
  const chosen = values.group ?? '';
  return (
    <form method="post" action={action} novalidate class="share-group">
      <CsrfField ctx={ctx} />
      <input type="hidden" name="action" value="add_group" />
      <div class="grid">
        <Select name="group" label="Share with the members of" value={chosen} choices={choices} errors={errors}
          help="Each member gets their own share, which you can change or remove later." />
        <div class="field">
          <label for="id_group_share_permission">They may</label>
          <select id="id_group_share_permission" name="permission">
            {PERMISSION_CHOICES.map((choice) => (
              <option value={choice.value} selected={chosen !== '' && choice.value === values.permission}>{choice.label}</option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" class="secondary">Share with the group's members</button>
    </form>
  );
}

/**
 * The owner's sharing controls: who can read the list and what each may do, the group and its
 * permission (shopping lists), add a user by name with a permission, change or remove one.
 */
export function SharePanel({ ctx, kind, listId, users, group = null, groups = [], values = {}, errors = {} }: {
  ctx: ViewContext; kind: ListKind; listId: number; users: SharedUser[]; group?: { name: string; permission: SharePermission } | null;
  /** The owner's groups: their members can be added all at once. */
  groups?: GroupChoice[];
  values?: FormValues; errors?: FormErrors;
}) {
  const action = `${kind.base}/${listId}/share/`;
  return (
    <section class="share-panel" aria-labelledby="sharing">
      <h2 id="sharing">Sharing</h2>
      {group ? (
        <p class="shared-group">
          Members of group <strong>{group.name}</strong> {PERMISSION_LABELS[group.permission]}.
        </p>
      ) : null}
      {users.length ? (
        <ul class="shared-users">
          {users.map((user) => (
            <li>
              <strong>{user.username}</strong> <span class="permission">{PERMISSION_LABELS[user.permission]}</span>{' '}
              <PermissionSwitch ctx={ctx} action={action} user={user} />{' '}
              <form method="post" action={action} class="inline">
                <CsrfField ctx={ctx} />
                <input type="hidden" name="username" value={user.username} />
                <input type="hidden" name="action" value="remove" />
                <button type="submit" class="secondary outline small" aria-label={`Stop sharing with ${user.username}`}>Remove</button>
              </form>
            </li>
          ))}
        </ul>
      ) : group ? null : (
        <p class="empty">Only you can see this list. Add someone by username to let them read it.</p>
      )}
      <form method="post" action={action} novalidate>
        <CsrfField ctx={ctx} />
        <input type="hidden" name="action" value="add" />
        <FormAlert errors={errors} />
        <div class="grid">
          <Field name="username" label="Share with (username)" value={values.username} errors={errors} required maxLength={150} autocomplete="off" />
          <Select name="permission" label="They may" value={values.permission ?? 'read'} choices={PERMISSION_CHOICES} errors={errors}
            help="Only you can rename, delete or share the list, and delete items." />
        </div>
        <button type="submit" class="secondary">Share</button>
      </form>
      {groups.length ? <GroupShareForm ctx={ctx} action={action} groups={groups} values={values} errors={errors} /> : null}
    </section>
  );
}

export function DeleteListPage({ ctx, kind, list }: { ctx: ViewContext; kind: ListKind; list: { id: number; title: string } }) {
  return (
    <Layout ctx={ctx} title={`Delete ${list.title}`}>
      <article class="narrow">
        <h1>Delete “{list.title}”?</h1>
        <p>The {kind.noun} and all its items are deleted for you and everyone it is shared with. This cannot be undone.</p>
        <form method="post" action={`${kind.base}/${list.id}/delete/`}>
          <CsrfField ctx={ctx} />
          <button type="submit" class="danger">Delete {kind.noun}</button>
          <a href={`${kind.base}/${list.id}/`} role="button" class="secondary outline">Cancel</a>
        </form>
      </article>
    </Layout>
  );
}
