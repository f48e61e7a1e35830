import type { Message } from '../../platform/i18n/index.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { dueFrom, parseWallTime } from '../../platform/wall-clock.js';
import { CONTENT_MAX, TITLE_MAX } from '../notes/index.js';
import { REMINDERS_PER_NOTE } from '../notes/index.js';
import { DEFAULT_NOTEBOOK_COLOR } from '../notebooks/index.js';
import { DEFAULT_TAG_COLOR, tagForm } from '../tags/index.js';
import { type ExportDocument, exportDocumentSchema } from './export-document.js';
import { type ImportedNote, type ImportedReminder, ImportRepository, noteKey } from './import-repository.js';
import { parseMarkdownNote } from './markdown-files.js';
import { BadZip, type ZipContents } from './zip-reader.js';

export interface ImportSummary {
  notes: number;
  reminders: number;
  /** Reminders of created notes left out: one-off ones whose time had passed, or over the per-note cap. */
  skippedReminders: number;
  /** Notes left out because the user has one with the same title and content. */
  skippedNotes: number;
  /** Lists left out because the user has one with the same title made at the same time (an export imported again). */
  skippedLists: number;
  notebooks: number;
  tags: number;
  todoLists: number;
  shoppingLists: number;
}

/** Notes checked against the existing ones per query. */
const DUPLICATE_CHECK_BATCH = 200;

/**
 * Writes an import into the user's account in one transaction: a problem anywhere (BadZip)
 * leaves the account as it was. Notebooks and tags are matched by name and reused; a note
 * identical (title and content) to one the user has is skipped, so importing the same export
 * twice, or after deleting a few notes, brings back what is missing and duplicates nothing.
 */
export async function importIntoAccount(db: Kysely<Database>, ownerId: number, contents: ZipContents, now = Date.now()): Promise<ImportSummary> {
  const plan = contents.document === null ? markdownPlan(contents.markdown, now) : documentPlan(contents.document);
  return db.transaction().execute((trx) => write(new ImportRepository(trx, ownerId), plan, now));
}

function documentPlan(text: string): ExportDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BadZip('import.not_json', { detail: (error as Error).message });
  }
  const result = exportDocumentSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new BadZip('import.not_export', { detail: `${issue.path.join('.') || '-'}: ${issue.message}` });
  }
  for (const tag of result.data.tags) checkTagName(tag.name, 'groupnotes.json');
  return result.data;
}

function checkTagName(name: string, file: string): void {
  if (!tagForm.safeParse({ name }).success) throw new BadZip('import.bad_tag', { file, name: name.slice(0, 60) });
}

/** Plain Markdown files become a document without lists: notebooks and tags by name. */
function markdownPlan(files: { path: string; text: string }[], now: number): ExportDocument {
  const plan: ExportDocument = { format: 'groupnotes-user-export', version: 1, groups: [], notebooks: [], tags: [], notes: [], todo_lists: [], shopping_lists: [] };
  const notebookIds = new Map<string, number>();
  const tagIds = new Map<string, number>();
  const idFor = (ids: Map<string, number>, name: string, add: (id: number) => void) => {
    const key = identityKey(name);
    if (!ids.has(key)) {
      ids.set(key, ids.size + 1);
      add(ids.size);
    }
    return ids.get(key)!;
  };
  for (const file of files) {
    let note;
    try {
      note = parseMarkdownNote(file.text, file.path.split('/').at(-1)!);
    } catch (error) {
      throw new BadZip('import.bad_yaml', { file: file.path, detail: (error as Error).message.split('\n')[0] ?? '' });
    }
    if (note.content.length > CONTENT_MAX) throw new BadZip('import.note_too_long', { file: file.path, max: CONTENT_MAX });
    const folder = file.path.split('/').slice(0, -1).at(-1);
    const notebookName = (note.notebook ?? folder)?.trim().slice(0, TITLE_MAX);
    const notebookId = notebookName
      ? idFor(notebookIds, notebookName, (id) => plan.notebooks.push({ id, title: notebookName, description: '', color: DEFAULT_NOTEBOOK_COLOR, created_at: now, updated_at: now }))
      : null;
    for (const name of note.tags) checkTagName(name, file.path);
    const tagIdList = note.tags.map((name) => idFor(tagIds, name, (id) => plan.tags.push({ id, name, color: DEFAULT_TAG_COLOR, created_at: now })));
    const created = note.created ?? note.updated ?? now;
    plan.notes.push({
      id: plan.notes.length + 1,
      title: note.title.trim().slice(0, TITLE_MAX) || 'Untitled',
      content: note.content,
      notebook_id: notebookId,
      group_id: null,
      tag_ids: tagIdList,
      priority: note.priority,
      is_pinned: note.pinned ? 1 : 0,
      is_archived: note.archived ? 1 : 0,
      created_at: created,
      updated_at: note.updated ?? created,
      reminders: [],
    });
  }
  return plan;
}

async function write(repository: ImportRepository, plan: ExportDocument, now: number): Promise<ImportSummary> {
  const summary: ImportSummary = { notes: 0, reminders: 0, skippedReminders: 0, skippedNotes: 0, skippedLists: 0, notebooks: 0, tags: 0, todoLists: 0, shoppingLists: 0 };
  const notebookKeys = await repository.notebooksByKey();
  const notebookIds = new Map<number, number>();
  for (const notebook of plan.notebooks) {
    const key = identityKey(notebook.title);
    let id = notebookKeys.get(key);
    if (id === undefined) {
      id = await repository.insertNotebook({ title: notebook.title, description: notebook.description, color: notebook.color, created_at: notebook.created_at, updated_at: notebook.updated_at });
      notebookKeys.set(key, id);
      summary.notebooks += 1;
    }
    notebookIds.set(notebook.id, id);
  }
  const tagKeys = await repository.tagsByKey();
  const tagIds = new Map<number, number>();
  for (const tag of plan.tags) {
    const key = identityKey(tag.name);
    let id = tagKeys.get(key);
    if (id === undefined) {
      id = await repository.insertTag({ name: tag.name, color: tag.color }, tag.created_at);
      tagKeys.set(key, id);
      summary.tags += 1;
    }
    tagIds.set(tag.id, id);
  }
  // A note or list goes back into its group only if the user is still a member of that very group.
  const memberGroups = await repository.memberGroups();
  const exportedGroups = new Map(plan.groups.map((group) => [group.id, group.name]));
  const groupId = (id: number | null) => (id !== null && memberGroups.has(id) && memberGroups.get(id) === exportedGroups.get(id) ? id : null);

  for (let start = 0; start < plan.notes.length; start += DUPLICATE_CHECK_BATCH) {
    const batch = plan.notes.slice(start, start + DUPLICATE_CHECK_BATCH);
    const existing = await repository.existingNoteKeys(batch.map((note) => note.title));
    for (const note of batch) {
      const key = noteKey(note.title, note.content);
      if (existing.has(key)) {
        summary.skippedNotes += 1;
        continue;
      }
      existing.add(key);
      const fields: ImportedNote = {
        title: note.title,
        content: note.content,
        notebook_id: note.notebook_id === null ? null : (notebookIds.get(note.notebook_id) ?? null),
        group_id: groupId(note.group_id),
        priority: note.priority,
        is_pinned: note.is_pinned,
        is_archived: note.is_archived,
        created_at: note.created_at,
        updated_at: note.updated_at,
      };
      const noteId = await repository.insertNote(fields, note.tag_ids.flatMap((id) => tagIds.get(id) ?? []));
      summary.notes += 1;
      const reminders = remindersToRestore(note.reminders, now);
      await repository.insertReminders(noteId, reminders, now);
      summary.reminders += reminders.length;
      summary.skippedReminders += note.reminders.length - reminders.length;
    }
  }
  for (const list of plan.todo_lists) {
    if (await repository.hasList('todo_lists', list.title, list.created_at)) {
      summary.skippedLists += 1;
      continue;
    }
    const { title, description, created_at, updated_at } = list;
    await repository.insertTodoList({ title, description, group_id: groupId(list.group_id), group_permission: list.group_permission, created_at, updated_at }, list.items);
    summary.todoLists += 1;
  }
  for (const list of plan.shopping_lists) {
    if (await repository.hasList('shopping_lists', list.title, list.created_at)) {
      summary.skippedLists += 1;
      continue;
    }
    const { title, store_name, created_at, updated_at } = list;
    await repository.insertShoppingList({ title, store_name, group_id: groupId(list.group_id), group_permission: list.group_permission, currency: list.currency, created_at, updated_at }, list.items);
    summary.shoppingLists += 1;
  }
  return summary;
}

/**
 * A created note's reminders, each due at its schedule's next time from now (the exported
 * next_due_at may have passed since): one-off ones whose time has passed are left out, and so
 * are those beyond the cap the reminders feature keeps per note.
 */
function remindersToRestore(reminders: ExportDocument['notes'][number]['reminders'], now: number): ImportedReminder[] {
  const restored: ImportedReminder[] = [];
  for (const { local_time, time_zone, repeat, message } of reminders) {
    const due = dueFrom(parseWallTime(local_time)!, time_zone, repeat, now);
    if (due !== null) restored.push({ local_time, time_zone, repeat, message, next_due_at: due });
  }
  return restored.sort((a, b) => a.next_due_at - b.next_due_at).slice(0, REMINDERS_PER_NOTE);
}

/** The flash message after an import: what was created and what was left out, counted in the page's language. */
export function describeSummary(summary: ImportSummary): Message {
  const { notes, reminders, notebooks, tags, todoLists, shoppingLists, skippedNotes, skippedLists, skippedReminders } = summary;
  return {
    key: 'import.done',
    values: { notes, reminders, notebooks, tags, todoLists, shoppingLists, skippedNotes, skippedLists, skippedReminders, max: REMINDERS_PER_NOTE },
  };
}
