import type { Kysely } from 'kysely';
import type { Database, Note, Notebook, Reminder, Tag, User } from '../src/db/schema.js';
import { searchWords } from '../src/db/search-words.js';
import { plainExcerpt } from '../src/features/notes/excerpt.js';
import { DEFAULT_TAG_COLOR } from '../src/features/tags/forms.js';
import { identityKey } from '../src/platform/identity-key.js';
import { TagsRepository } from '../src/features/tags/repository.js';

let counter = 0;

/** A note owned by `owner`, inserted directly, with its search words (the search index follows through its triggers). */
export async function createNote(
  db: Kysely<Database>,
  owner: User,
  overrides: Partial<Omit<Note, 'id' | 'owner_id'>> & { tags?: Tag[] } = {},
): Promise<Note> {
  counter += 1;
  const now = overrides.updated_at ?? Date.now();
  const { tags = [], ...fields } = overrides;
  const title = fields.title ?? `Note ${counter}`;
  const content = fields.content ?? `Text of note ${counter}`;
  const note = await db
    .insertInto('notes')
    .values({
      notebook_id: null, group_id: null, created_at: now, updated_at: now,
      ...fields, title, content, excerpt: plainExcerpt(content), search_words: searchWords(title, content), owner_id: owner.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (tags.length > 0) await db.insertInto('note_tags').values(tags.map((tag) => ({ note_id: note.id, tag_id: tag.id }))).execute();
  return note;
}

export async function createNotebook(db: Kysely<Database>, owner: User, overrides: Partial<Pick<Notebook, 'title' | 'description' | 'color'>> = {}): Promise<Notebook> {
  counter += 1;
  const now = Date.now();
  const title = overrides.title ?? `Notebook ${counter}`;
  return db
    .insertInto('notebooks')
    .values({ ...overrides, title, title_key: identityKey(title), owner_id: owner.id, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createTag(db: Kysely<Database>, owner: User, overrides: Partial<Pick<Tag, 'name' | 'color'>> = {}): Promise<Tag> {
  counter += 1;
  return new TagsRepository(db).insert(owner.id, { name: `tag${counter}`, color: DEFAULT_TAG_COLOR, ...overrides });
}

/** A reminder on a note, for its owner: by default once, on 1 January 2030 at 09:00 UTC. */
export function createReminder(db: Kysely<Database>, note: Note, overrides: Partial<Pick<Reminder, 'local_time' | 'time_zone' | 'repeat' | 'message' | 'next_due_at'>> = {}): Promise<Reminder> {
  return db
    .insertInto('reminders')
    .values({ local_time: '2030-01-01T09:00', time_zone: 'UTC', repeat: 'none', message: '', next_due_at: Date.UTC(2030, 0, 1, 9), ...overrides, note_id: note.id, owner_id: note.owner_id, created_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findNote(db: Kysely<Database>, id: number): Promise<Note | undefined> {
  return db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();
}
