import { searchWords } from '../../db/search-words.js';
import { MAX_CHAT_LENGTH } from '../groups/index.js';
import { plainExcerpt } from '../notes/index.js';
import { CONTENT_MAX, TITLE_MAX } from '../notes/index.js';
import { REMINDERS_PER_NOTE } from '../notes/index.js';
import { parseMoney, parseQuantity } from '../lists/index.js';
import { isValidDueDate } from '../lists/index.js';
import { distinctName, identityKey, identityKeyProblem } from '../../platform/identity-key.js';
import { type Planning, bool, ms, pks, quote, str, textProblem } from './plan-context.js';
import { planReminder } from './reminders.js';

/** Notebooks and tags of kept users; tag names unique per owner once folded. */
export function planNotebooksAndTags(p: Planning): void {
  const { each, rows, now, notebooks, tags } = p;
  const notebookKeys = new Map<number, Set<string>>();
  each(
    'notes_app.notebook',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const problem = p.ownerProblem(fields.user) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the description', str(fields.description), 2000, false);
      if (problem) return problem;
      const color = p.colorOf(fields.color, '#4f6d7a');
      if (color === null) return `the colour ${quote(str(fields.color))} is not #rrggbb`;
      const created = ms(fields.created_at, now);
      // Titles are unique per owner once folded (migration 0021): a later "recipes" beside
      // "Recipes" is kept as "recipes (2)", as the migration renames them, so its notes stay filed.
      const taken = notebookKeys.get(fields.user as number) ?? new Set<string>();
      notebookKeys.set(fields.user as number, taken);
      const title = distinctName(identityKeyProblem(str(fields.title).trim()) ? 'Notebook' : str(fields.title).trim(), taken, 200);
      taken.add(identityKey(title));
      notebooks.set(pk, fields.user as number);
      rows.notebooks.push({ id: pk, owner_id: fields.user as number, title, title_key: identityKey(title), description: str(fields.description).trim(), color, created_at: created, updated_at: ms(fields.updated_at, created) });
      return null;
    },
  );
  const tagKeys = new Map<string, number>();
  each(
    'notes_app.tag',
    (entry) => quote(str(entry.fields.name)),
    ({ pk, fields }) => {
      const name = str(fields.name).trim();
      const problem = p.ownerProblem(fields.user) ?? textProblem('the name', name, 50) ?? (identityKeyProblem(name) ? 'the name shows no letter or is too long once folded' : null);
      if (problem) return problem;
      const color = p.colorOf(fields.color, '#6c757d');
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
}

/** Notes: the owner's own notebook and tags, a kept group. */
export function planNotes(p: Planning): void {
  const { each, rows, now, notebooks, tags, noteOwners } = p;
  each(
    'notes_app.note',
    (entry) => quote(str(entry.fields.title)),
    ({ pk, fields }) => {
      const userPk = fields.user as number;
      const content = str(fields.content).replace(/\r\n?/g, '\n');
      const priority = fields.priority ?? 0;
      const problem =
        p.ownerProblem(userPk) ??
        textProblem('the title', str(fields.title), TITLE_MAX) ??
        (content.length > CONTENT_MAX ? `the content is longer than ${CONTENT_MAX} characters` : null) ??
        (typeof priority === 'number' && priority >= 0 && priority <= 3 ? null : `the priority ${String(priority)} is not 0 to 3`) ??
        p.groupProblem(fields.group, userPk);
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
        search_words: searchWords(str(fields.title).trim(), content),
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
}

/** To-do and shopping lists, their items and shares. */
export function planLists(p: Planning): void {
  const { each, rows, notices, now, users } = p;
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
      const problem = p.ownerProblem(userPk) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the description', str(fields.description), 2000, false);
      if (problem) return problem;
      const created = ms(fields.created_at, now);
      todoLists.add(pk);
      rows.todo_lists.push({ id: pk, owner_id: userPk, title: str(fields.title).trim(), description: str(fields.description).trim(), created_at: created, updated_at: ms(fields.updated_at, created) });
      for (const userId of shares('notes_app.todolist', pk, userPk, fields.shared_with)) rows.todo_list_shares.push({ list_id: pk, user_id: userId });
      return null;
    },
  );
  const positions = new Map<number, number>();
  const todoItems = [...p.byModel.get('notes_app.todoitem')!].sort(
    (a, b) => ((a.fields.position as number | undefined) ?? 0) - ((b.fields.position as number | undefined) ?? 0) || a.pk - b.pk,
  );
  p.byModel.set('notes_app.todoitem', todoItems);
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
      const problem = p.ownerProblem(userPk) ?? textProblem('the title', str(fields.title), 200) ?? textProblem('the store name', str(fields.store_name), 200, false) ?? p.groupProblem(fields.group, userPk);
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
        is_done: bool(fields.is_bought),
        created_at: ms(fields.created_at, shoppingLists.get(listPk)!),
      });
      return null;
    },
  );
}

/** Chat messages of kept groups by kept authors. */
export function planChat(p: Planning): void {
  const { each, rows, users, groups } = p;
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
      if (!p.isMember(groupPk, authorPk)) p.outsiders += 1;
      rows.chat_messages.push({ id: pk, group_id: groupPk, author_id: authorPk, content, created_at: fields.timestamp as number });
      return null;
    },
  );
}

/** Reminders on kept notes, for the note's owner. */
export function planReminders(p: Planning): void {
  const { each, rows, notices, now, noteOwners } = p;
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
}
