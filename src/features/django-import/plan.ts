import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { identityKey, identityKeyProblem } from '../../platform/identity-key.js';
import { username as usernameSchema } from '../accounts/forms.js';
import { MAX_CHAT_LENGTH } from '../groups/forms.js';
import { plainExcerpt } from '../notes/excerpt.js';
import { CONTENT_MAX, TITLE_MAX } from '../notes/forms.js';
import { REMINDERS_PER_NOTE } from '../notes/reminders-forms.js';
import { parseMoney, parseQuantity } from '../shopping/money.js';
import { isValidDueDate } from '../todo/dates.js';
import type { Entry, ModelName, ParsedDump } from './parse.js';
import { planReminder } from './reminders.js';

// What of a parsed dump this service can hold, decided before anything is written. An object
// that would break one of its rules is left out whole, with a reason, and so is everything that
// depends on it (a left-out user's notes, a left-out list's items): nothing is imported half-way.
// Per case:
// - users: the username must be valid here; of several that are one name once folded
//   (identity-key.ts), the lowest pk is kept and the others are left out;
// - groups: owned by their earliest member (date_joined, then pk); a group without members, or
//   whose name its owner already uses, is left out;
// - notes: left out when a tag or the notebook is missing or someone else's, or the group is not
//   imported; lists and chat messages: when the group is not imported. A note, list or message
//   whose owner or author is not (or no longer) a member of its group is kept, as it is here after
//   a member leaves a group (the report counts them);
// - access links only (memberships, shares) naming a user or group that is not imported are
//   dropped and reported: the object keeps less access, never more;
// - reminders (reminders.ts): on an imported note, for its owner; a one-off already sent is
//   counted, not imported; one past and unsent is left out; a repeating one in the past moves to
//   its next occurrence; beyond the per-note cap they are left out.

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export interface ImportRows {
  users: Rows<'users'>;
  groups: Rows<'groups'>;
  group_members: Rows<'group_members'>;
  notebooks: Rows<'notebooks'>;
  tags: Rows<'tags'>;
  notes: Rows<'notes'>;
  note_tags: Rows<'note_tags'>;
  todo_lists: Rows<'todo_lists'>;
  todo_list_shares: Rows<'todo_list_shares'>;
  todo_items: Rows<'todo_items'>;
  shopping_lists: Rows<'shopping_lists'>;
  shopping_list_shares: Rows<'shopping_list_shares'>;
  shopping_items: Rows<'shopping_items'>;
  chat_messages: Rows<'chat_messages'>;
  reminders: Rows<'reminders'>;
}

export interface ModelReport {
  imported: number;
  leftOut: string[];
}

export interface ImportPlan {
  rows: ImportRows;
  models: Map<ModelName, ModelReport>;
  /** Things done that the reader should know: group owners chosen, links dropped. */
  notices: string[];
}

const MODEL_ORDER: ModelName[] = [
  'auth.user',
  'auth.group',
  'notes_app.notebook',
  'notes_app.tag',
  'notes_app.note',
  'notes_app.todolist',
  'notes_app.todoitem',
  'notes_app.shoppinglist',
  'notes_app.shopitem',
  'notes_app.chatmessage',
  'notes_app.reminder',
];

const COLOR = /^#[0-9a-fA-F]{6}$/;
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const bool = (value: unknown, fallback = false) => ((typeof value === 'boolean' ? value : fallback) ? 1 : 0);
const ms = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
const pks = (value: unknown) => [...new Set(Array.isArray(value) ? (value as number[]) : [])];
const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);

/** Why a title-like text cannot be stored, or null. */
function textProblem(what: string, value: string, max: number, required = true): string | null {
  if (required && value.trim() === '') return `${what} is empty`;
  return value.trim().length > max ? `${what} is longer than ${max} characters` : null;
}

export function planImport(dump: ParsedDump, now = Date.now()): ImportPlan {
  const byModel = new Map<ModelName, Entry[]>(MODEL_ORDER.map((model) => [model, []]));
  for (const entry of dump.entries) byModel.get(entry.model)!.push(entry);
  for (const entries of byModel.values()) entries.sort((a, b) => a.pk - b.pk);
  const models = new Map<ModelName, ModelReport>(MODEL_ORDER.map((model) => [model, { imported: 0, leftOut: [] }]));
  const notices: string[] = [];
  const rows: ImportRows = {
    users: [],
    groups: [],
    group_members: [],
    notebooks: [],
    tags: [],
    notes: [],
    note_tags: [],
    todo_lists: [],
    todo_list_shares: [],
    todo_items: [],
    shopping_lists: [],
    shopping_list_shares: [],
    shopping_items: [],
    chat_messages: [],
    reminders: [],
  };

  /** Runs `decide` on each entry of a model: a string is the reason it is left out; false, not imported and counted by the caller. */
  function each(model: ModelName, describe: (entry: Entry) => string, decide: (entry: Entry) => string | null | false): void {
    const report = models.get(model)!;
    for (const entry of byModel.get(model)!) {
      // PostgreSQL's text cannot hold U+0000; SQLite's could, but then the two would differ.
      const nul = Object.entries(entry.fields).find(([, value]) => typeof value === 'string' && value.includes('\u0000'));
      const reason = nul ? `its ${nul[0]} holds a NUL character, which is not stored here` : decide(entry);
      if (reason === null) report.imported += 1;
      else if (reason !== false) report.leftOut.push(`${model} pk ${entry.pk} ${describe(entry)}: ${reason}`);
    }
  }

  // Users.
  const users = new Map<number, { username: string; joined: number; groups: number[] }>();
  const keys = new Map<string, { pk: number; username: string }>();
  const superusers: string[] = [];
  const unusable: string[] = [];
  each(
    'auth.user',
    (entry) => quote(str(entry.fields.username)),
    ({ pk, fields }) => {
      const parsed = usernameSchema.safeParse(fields.username);
      if (!parsed.success) return `not a valid username here: ${parsed.error.issues[0]!.message}`;
      const username = parsed.data;
      const key = identityKey(username);
      const taken = keys.get(key);
      if (taken) return `the same username as ${quote(taken.username)} (pk ${taken.pk}) once letter case is folded; the lower pk is kept`;
      const email = str(fields.email).trim();
      if (email.length > 254) return 'the email address is longer than 254 characters';
      const password = str(fields.password);
      if (password.length > 255) return 'the password hash is longer than 255 characters';
      keys.set(key, { pk, username });
      const joined = ms(fields.date_joined, now);
      users.set(pk, { username, joined, groups: pks(fields.groups) });
      if (fields.is_superuser === true) superusers.push(username);
      if (!password.startsWith('pbkdf2_sha256$')) unusable.push(username);
      rows.users.push({
        id: pk,
        username,
        username_key: key,
        email,
        password,
        is_active: bool(fields.is_active, true),
        date_joined: joined,
        last_login: typeof fields.last_login === 'number' ? fields.last_login : null,
      });
      return null;
    },
  );
  if (superusers.length > 0) notices.push(`Django superusers, not made administrators here (use groupnotes promote): ${superusers.join(', ')}`);
  if (unusable.length > 0) notices.push(`password hashes other than pbkdf2_sha256, kept but unusable here (use groupnotes changepassword): ${unusable.join(', ')}`);

  // Groups: members are the imported users naming them; the owner is the earliest member.
  const groupPks = new Set(byModel.get('auth.group')!.map((entry) => entry.pk));
  const membersOf = new Map<number, number[]>();
  for (const [userPk, user] of users) {
    for (const groupPk of user.groups) {
      if (!groupPks.has(groupPk)) notices.push(`membership of user ${user.username} in group pk ${groupPk} dropped: no such group in the file`);
      else membersOf.set(groupPk, [...(membersOf.get(groupPk) ?? []), userPk]);
    }
  }
  const groups = new Map<number, Set<number>>();
  const groupKeys = new Set<string>();
  each(
    'auth.group',
    (entry) => quote(str(entry.fields.name)),
    ({ pk, fields }) => {
      const name = str(fields.name).trim();
      const problem = textProblem('the name', name, 150) ?? (identityKeyProblem(name) ? 'the name shows no letter or is too long once folded' : null);
      if (problem) return problem;
      const members = (membersOf.get(pk) ?? []).sort((a, b) => users.get(a)!.joined - users.get(b)!.joined || a - b);
      const ownerPk = members[0];
      if (ownerPk === undefined) return 'no imported user is a member, so no one can own it';
      const owner = users.get(ownerPk)!;
      const key = identityKey(name);
      if (groupKeys.has(`${ownerPk} ${key}`)) return `its owner ${owner.username} already has a group of that name`;
      groupKeys.add(`${ownerPk} ${key}`);
      const created = owner.joined;
      groups.set(pk, new Set(members));
      rows.groups.push({ id: pk, name, name_key: key, owner_id: ownerPk, created_at: created });
      for (const member of members) rows.group_members.push({ group_id: pk, user_id: member, joined_at: Math.max(created, users.get(member)!.joined) });
      notices.push(`group ${quote(name)} (pk ${pk}): owner ${owner.username}, its earliest member (Django groups have no owner)`);
      return null;
    },
  );
  for (const [groupPk, members] of membersOf) {
    if (!groups.has(groupPk)) for (const member of members) notices.push(`membership of user ${users.get(member)!.username} in group pk ${groupPk} dropped: the group is left out`);
  }

  const ownerProblem = (userPk: unknown) => (users.has(userPk as number) ? null : `its user pk ${String(userPk)} is not imported`);
  const colorOf = (value: unknown, fallback: string): string | null => {
    const color = str(value).trim();
    if (color === '') return fallback;
    return COLOR.test(color) ? color.toLowerCase() : null;
  };

  // Notebooks and tags.
  const notebooks = new Map<number, number>();
  each(
    'notes_app.notebook',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const problem = ownerProblem(fields.user) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the description', str(fields.description), 2000, false);
      if (problem) return problem;
      const color = colorOf(fields.color, '#4f6d7a');
      if (color === null) return `the colour ${quote(str(fields.color))} is not #rrggbb`;
      const created = ms(fields.created_at, now);
      notebooks.set(pk, fields.user as number);
      rows.notebooks.push({ id: pk, owner_id: fields.user as number, title: str(fields.title).trim(), description: str(fields.description).trim(), color, created_at: created, updated_at: ms(fields.updated_at, created) });
      return null;
    },
  );
  const tags = new Map<number, number>();
  const tagKeys = new Map<string, number>();
  each(
    'notes_app.tag',
    (entry) => quote(str(entry.fields.name)),
    ({ pk, fields }) => {
      const name = str(fields.name).trim();
      const problem = ownerProblem(fields.user) ?? textProblem('the name', name, 50) ?? (identityKeyProblem(name) ? 'the name shows no letter or is too long once folded' : null);
      if (problem) return problem;
      const color = colorOf(fields.color, '#6c757d');
      if (color === null) return `the colour ${quote(str(fields.color))} is not #rrggbb`;
      const key = identityKey(name);
      const taken = tagKeys.get(`${String(fields.user)} ${key}`);
      if (taken !== undefined) return `the same user's tag pk ${taken} has the same name once letter case is folded`;
      tagKeys.set(`${String(fields.user)} ${key}`, pk);
      tags.set(pk, fields.user as number);
      rows.tags.push({ id: pk, owner_id: fields.user as number, name, name_key: key, color, created_at: ms(fields.created_at, now) });
      return null;
    },
  );

  const isMember = (groupPk: number, userPk: number) => groups.get(groupPk)?.has(userPk) === true;
  /** Notes, lists and messages kept in a group their owner or author is not a member of. */
  let outsiders = 0;
  const groupProblem = (group: unknown, userPk: number): string | null => {
    if (group === null || group === undefined) return null;
    if (!groups.has(group as number)) return `its group pk ${String(group)} is not imported`;
    if (!isMember(group as number, userPk)) outsiders += 1;
    return null;
  };

  // Notes.
  const noteOwners = new Map<number, number>();
  each(
    'notes_app.note',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const userPk = fields.user as number;
      const content = str(fields.content).replace(/\r\n?/g, '\n');
      const priority = fields.priority ?? 0;
      const problem =
        ownerProblem(userPk) ??
        textProblem('the title', str(fields.title), TITLE_MAX) ??
        (content.length > CONTENT_MAX ? `the content is longer than ${CONTENT_MAX} characters` : null) ??
        (typeof priority === 'number' && priority >= 0 && priority <= 3 ? null : `the priority ${String(priority)} is not 0 to 3`) ??
        groupProblem(fields.group, userPk);
      if (problem) return problem;
      const notebook = (fields.notebook as number | null | undefined) ?? null;
      if (notebook !== null && notebooks.get(notebook) !== userPk) {
        return notebooks.has(notebook) ? `its notebook pk ${notebook} belongs to another user` : `its notebook pk ${notebook} is not imported`;
      }
      const tagPks = pks(fields.tags);
      for (const tag of tagPks) {
        if (tags.get(tag) !== userPk) return tags.has(tag) ? `its tag pk ${tag} belongs to another user` : `its tag pk ${tag} is not imported`;
      }
      const created = ms(fields.created_at, now);
      rows.notes.push({
        id: pk,
        owner_id: userPk,
        title: str(fields.title).trim(),
        content,
        excerpt: plainExcerpt(content),
        notebook_id: notebook,
        group_id: (fields.group as number | null | undefined) ?? null,
        priority: priority as number,
        is_pinned: bool(fields.is_pinned),
        is_archived: bool(fields.is_archived),
        created_at: created,
        updated_at: ms(fields.updated_at, created),
      });
      for (const tag of tagPks) rows.note_tags.push({ note_id: pk, tag_id: tag });
      noteOwners.set(pk, userPk);
      return null;
    },
  );

  /** Shares of a list with imported users other than its owner; the others are dropped and said. */
  function shares(model: string, listPk: number, ownerPk: number, sharedWith: unknown): number[] {
    const kept: number[] = [];
    for (const userPk of pks(sharedWith)) {
      if (userPk === ownerPk) continue;
      if (users.has(userPk)) kept.push(userPk);
      else notices.push(`share of ${model} pk ${listPk} with user pk ${userPk} dropped: that user is not imported`);
    }
    return kept;
  }

  // To-do lists and their items.
  const todoLists = new Set<number>();
  each(
    'notes_app.todolist',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const userPk = fields.user as number;
      const problem = ownerProblem(userPk) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the description', str(fields.description), 2000, false);
      if (problem) return problem;
      const created = ms(fields.created_at, now);
      todoLists.add(pk);
      rows.todo_lists.push({ id: pk, owner_id: userPk, title: str(fields.title).trim(), description: str(fields.description).trim(), created_at: created, updated_at: ms(fields.updated_at, created) });
      for (const userId of shares('notes_app.todolist', pk, userPk, fields.shared_with)) rows.todo_list_shares.push({ list_id: pk, user_id: userId });
      return null;
    },
  );
  const positions = new Map<number, number>();
  const todoItems = [...byModel.get('notes_app.todoitem')!].sort(
    (a, b) => ((a.fields.position as number | undefined) ?? 0) - ((b.fields.position as number | undefined) ?? 0) || a.pk - b.pk,
  );
  byModel.set('notes_app.todoitem', todoItems);
  each(
    'notes_app.todoitem',
    (entry) => quote(str(entry.fields.text)),
    ({ pk, fields }) => {
      const listPk = fields.todo_list as number;
      if (!todoLists.has(listPk)) return `its to-do list pk ${listPk} is not imported`;
      const problem = textProblem('the text', str(fields.text), 500);
      if (problem) return problem;
      const due = (fields.due_date as string | null | undefined) ?? null;
      if (due !== null && !isValidDueDate(due)) return `the due date ${due} is not a date from 1900 to 2999`;
      const position = positions.get(listPk) ?? 0;
      positions.set(listPk, position + 1);
      rows.todo_items.push({ id: pk, list_id: listPk, text: str(fields.text).trim(), due_date: due, is_done: bool(fields.is_done), position, created_at: ms(fields.created_at, now) });
      return null;
    },
  );

  // Shopping lists and their items.
  const shoppingLists = new Map<number, number>();
  each(
    'notes_app.shoppinglist',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const userPk = fields.user as number;
      const problem = ownerProblem(userPk) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the store name', str(fields.store_name), 200, false) ?? groupProblem(fields.group, userPk);
      if (problem) return problem;
      const created = ms(fields.created_at, now);
      shoppingLists.set(pk, ms(fields.created_at, now));
      rows.shopping_lists.push({
        id: pk,
        owner_id: userPk,
        title: str(fields.title).trim(),
        store_name: str(fields.store_name).trim(),
        group_id: (fields.group as number | null | undefined) ?? null,
        created_at: created,
        updated_at: ms(fields.updated_at, created),
      });
      for (const userId of shares('notes_app.shoppinglist', pk, userPk, fields.shared_with)) rows.shopping_list_shares.push({ list_id: pk, user_id: userId });
      return null;
    },
  );
  each(
    'notes_app.shopitem',
    (entry) => quote(str(entry.fields.name)),
    ({ pk, fields }) => {
      const listPk = fields.shopping_list as number;
      if (!shoppingLists.has(listPk)) return `its shopping list pk ${listPk} is not imported`;
      const problem = textProblem('the name', str(fields.name), 200) ?? textProblem('the unit', str(fields.unit), 30, false);
      if (problem) return problem;
      const quantity = fields.quantity === undefined ? { ok: true as const, value: 1000 } : parseQuantity(fields.quantity as string);
      if (!quantity.ok) return `the quantity ${quote(String(fields.quantity))}: ${quantity.message}`;
      const rawPrice = (fields.estimated_price as string | null | undefined) ?? null;
      const price = rawPrice === null || rawPrice === '' ? { ok: true as const, value: null } : parseMoney(rawPrice);
      if (!price.ok) return `the price ${quote(rawPrice!)}: ${price.message}`;
      rows.shopping_items.push({
        id: pk,
        list_id: listPk,
        name: str(fields.name).trim(),
        quantity_milli: quantity.value,
        unit: str(fields.unit).trim(),
        estimated_price_cents: price.value,
        is_bought: bool(fields.is_bought),
        created_at: ms(fields.created_at, shoppingLists.get(listPk)!),
      });
      return null;
    },
  );

  // Chat messages.
  each(
    'notes_app.chatmessage',
    (entry) => `in group pk ${String(entry.fields.group)}`,
    ({ pk, fields }) => {
      const [groupPk, authorPk] = [fields.group as number, fields.author as number];
      if (!groups.has(groupPk)) return `its group pk ${groupPk} is not imported`;
      if (!users.has(authorPk)) return `its author pk ${authorPk} is not imported`;
      const content = str(fields.content).trim();
      const problem = textProblem('the message', content, MAX_CHAT_LENGTH);
      if (problem) return problem;
      if (!isMember(groupPk, authorPk)) outsiders += 1;
      rows.chat_messages.push({ id: pk, group_id: groupPk, author_id: authorPk, content, created_at: fields.timestamp as number });
      return null;
    },
  );

  // Reminders.
  const remindersOnNote = new Map<number, number>();
  let sent = 0;
  let moved = 0;
  each(
    'notes_app.reminder',
    (entry) => `on note pk ${String(entry.fields.note)}`,
    ({ pk, fields }) => {
      const notePk = fields.note as number;
      const ownerPk = noteOwners.get(notePk);
      if (ownerPk === undefined) return `its note pk ${notePk} is not imported`;
      const planned = planReminder(fields, now);
      if (planned === 'sent') {
        sent += 1;
        return false;
      }
      if (typeof planned === 'string') return planned;
      const count = remindersOnNote.get(notePk) ?? 0;
      if (count >= REMINDERS_PER_NOTE) return `its note already has ${REMINDERS_PER_NOTE} reminders, the most a note has here`;
      remindersOnNote.set(notePk, count + 1);
      if (planned.moved) moved += 1;
      const { local_time, time_zone, repeat, message, next_due_at } = planned;
      rows.reminders.push({ id: pk, note_id: notePk, owner_id: ownerPk, local_time, time_zone, repeat, message, next_due_at, created_at: now });
      return null;
    },
  );
  if (sent > 0) notices.push(`${sent} one-off reminder(s) already sent (is_sent) not imported: nothing is left to remind of`);
  if (moved > 0) notices.push(`${moved} repeating reminder(s) whose time had passed moved to their next occurrence`);
  if (rows.reminders.length > 0) notices.push('reminders are set at remind_at in UTC, the time zone imported users start with (Django users have none)');

  if (outsiders > 0) notices.push(`${outsiders} note(s), shopping list(s) or chat message(s) kept in a group their owner or author is not a member of (as after leaving a group here)`);
  return { rows, models, notices };
}
