import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { migrations } from './index.js';

// Kept pages trust these numbers to move with every change that a notes page shows (see the
// migration). Each test makes one change by plain SQL, as another process would, and checks
// whose numbers moved: the right ones, and not everybody's.

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
});

async function addUser(username: string): Promise<number> {
  const row = await db.insertInto('users').values({ username, username_key: identityKey(username), email: '', password: 'x', date_joined: 0 }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

async function addGroup(name: string, ownerId: number, members: number[]): Promise<number> {
  const { id } = await db.insertInto('groups').values({ name, name_key: identityKey(name), owner_id: ownerId, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
  for (const userId of members) await db.insertInto('group_members').values({ group_id: id, user_id: userId, joined_at: 0 }).execute();
  return id;
}

async function addNote(ownerId: number, fields: { group_id?: number; notebook_id?: number } = {}): Promise<number> {
  const row = await db
    .insertInto('notes')
    .values({ owner_id: ownerId, title: 't', search_words: '', created_at: 0, updated_at: 0, group_id: fields.group_id ?? null, notebook_id: fields.notebook_id ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every user's and group's version, by name. */
async function versions(): Promise<Record<string, number>> {
  const users = await db.selectFrom('users').select(['username as name', 'view_version']).execute();
  const groups = await db.selectFrom('groups').select(['name', 'view_version']).execute();
  return Object.fromEntries([...users, ...groups].map((row) => [row.name, Number(row.view_version)]));
}

/** The names whose version moved while `change` ran. */
async function moved(change: () => Promise<unknown>): Promise<string[]> {
  const before = await versions();
  await change();
  const after = await versions();
  return Object.keys(after)
    .filter((name) => after[name] !== before[name])
    .sort();
}

interface World {
  ann: number;
  bob: number;
  cat: number;
  family: number;
  club: number;
}

/** Ann and Bob in "family", Cat alone in "club". */
async function world(): Promise<World> {
  const ann = await addUser('ann');
  const bob = await addUser('bob');
  const cat = await addUser('cat');
  const family = await addGroup('family', ann, [ann, bob]);
  const club = await addGroup('club', cat, [cat]);
  return { ann, bob, cat, family, club };
}

describe('view versions (migration 0007)', () => {
  it('move for the owner alone when a private note is written, changed or deleted', async () => {
    const { ann } = await world();
    let note = 0;
    expect(await moved(async () => (note = await addNote(ann)))).toEqual(['ann']);
    expect(await moved(() => db.updateTable('notes').set({ title: 'new' }).where('id', '=', note).execute())).toEqual(['ann']);
    expect(await moved(() => db.deleteFrom('notes').where('id', '=', note).execute())).toEqual(['ann']);
  });

  it('move for the owner and the group when a group note is written or changed, and for both groups when it moves', async () => {
    const { ann, family, club } = await world();
    let note = 0;
    expect(await moved(async () => (note = await addNote(ann, { group_id: family })))).toEqual(['ann', 'family']);
    expect(await moved(() => db.updateTable('notes').set({ is_pinned: 1 }).where('id', '=', note).execute())).toEqual(['ann', 'family']);
    expect(await moved(() => db.updateTable('notes').set({ group_id: club }).where('id', '=', note).execute())).toEqual(['ann', 'club', 'family']);
    expect(await moved(() => db.updateTable('notes').set({ group_id: null }).where('id', '=', note).execute())).toEqual(['ann', 'club']);
  });

  it('move when a tag is put on or taken off a note, renamed or deleted', async () => {
    const { ann, family } = await world();
    const note = await addNote(ann, { group_id: family });
    const { id: tag } = await db.insertInto('tags').values({ owner_id: ann, name: 'x', name_key: 'x', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    expect(await moved(() => db.insertInto('note_tags').values({ note_id: note, tag_id: tag }).execute())).toEqual(['ann', 'family']);
    expect(await moved(() => db.updateTable('tags').set({ name: 'y', name_key: 'y' }).where('id', '=', tag).execute())).toEqual(['ann', 'family']);
    expect(await moved(() => db.deleteFrom('note_tags').where('tag_id', '=', tag).execute())).toEqual(['ann', 'family']);
    await db.insertInto('note_tags').values({ note_id: note, tag_id: tag }).execute();
    expect(await moved(() => db.deleteFrom('tags').where('id', '=', tag).execute())).toEqual(['ann', 'family']);
  });

  it('move when a notebook holding a group note is renamed or deleted', async () => {
    const { ann, family } = await world();
    const { id: notebook } = await db.insertInto('notebooks').values({ owner_id: ann, title: 'n', title_key: 'n', created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow();
    await addNote(ann, { group_id: family, notebook_id: notebook });
    expect(await moved(() => db.updateTable('notebooks').set({ title: 'm' }).where('id', '=', notebook).execute())).toEqual(['ann', 'family']);
    expect(await moved(() => db.deleteFrom('notebooks').where('id', '=', notebook).execute())).toEqual(['ann', 'family']);
  });

  it('move for a member who joins or leaves, and for a group renamed', async () => {
    const { cat, family } = await world();
    expect(await moved(() => db.insertInto('group_members').values({ group_id: family, user_id: cat, joined_at: 0 }).execute())).toEqual(['cat']);
    expect(await moved(() => db.deleteFrom('group_members').where('user_id', '=', cat).where('group_id', '=', family).execute())).toEqual(['cat']);
    expect(await moved(() => db.updateTable('groups').set({ name: 'kin', name_key: 'kin' }).where('id', '=', family).execute())).toEqual(['kin']);
  });

  it('move for the groups an author’s notes are in when the author is renamed, and not for a password change', async () => {
    const { ann, family } = await world();
    await addNote(ann, { group_id: family });
    expect(await moved(() => db.updateTable('users').set({ username: 'anne', username_key: 'anne' }).where('id', '=', ann).execute())).toEqual(['anne', 'family']);
    expect(await moved(() => db.updateTable('users').set({ password: 'y' }).where('id', '=', ann).execute())).toEqual([]);
  });

  it('move a note’s own number with the note, its tags and their names, and not with the group’s other notes', async () => {
    const { ann, bob, family } = await world();
    const { id: notebook } = await db.insertInto('notebooks').values({ owner_id: ann, title: 'n', title_key: 'n', created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow();
    const { id: tag } = await db.insertInto('tags').values({ owner_id: ann, name: 'x', name_key: 'x', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    const mine = await addNote(ann, { group_id: family, notebook_id: notebook });
    const theirs = await addNote(bob, { group_id: family });
    const version = async (id: number) => Number((await db.selectFrom('notes').select('view_version').where('id', '=', id).executeTakeFirstOrThrow()).view_version);
    /** How far each note's number moved while `change` ran. */
    const steps = async (change: () => Promise<unknown>) => {
      const [a, b] = [await version(mine), await version(theirs)];
      await change();
      return [(await version(mine)) - a, (await version(theirs)) - b];
    };
    expect(await steps(() => db.updateTable('notes').set({ title: 'new' }).where('id', '=', mine).execute())).toEqual([1, 0]);
    expect(await steps(() => db.updateTable('notes').set({ is_pinned: 1 }).where('id', '=', theirs).execute())).toEqual([0, 1]);
    expect(await steps(() => db.insertInto('note_tags').values({ note_id: mine, tag_id: tag }).execute())).toEqual([1, 0]);
    expect(await steps(() => db.updateTable('tags').set({ color: '#000000' }).where('id', '=', tag).execute())).toEqual([1, 0]);
    expect(await steps(() => db.updateTable('notebooks').set({ title: 'm' }).where('id', '=', notebook).execute())).toEqual([1, 0]);
    expect(await steps(() => db.deleteFrom('note_tags').where('note_id', '=', mine).execute())).toEqual([1, 0]);
  });

  it('goes down and up again', async () => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0006_name_keys');
    expect(down.error).toBeUndefined();
    await migrateToLatest(db);
    const { ann } = await world();
    expect(await moved(() => addNote(ann))).toEqual(['ann']);
  });
});
