import { type Kysely, sql } from 'kysely';
import { isPostgres, withId } from './dialect.js';

// The list page orders by (is_pinned, priority, updated_at, id), all descending, within one owner
// or one group and one archived state. One index per access path in exactly that order lets each
// branch of the list query read its first rows straight off the index, whatever the total.
const LIST_ORDER = ['is_archived', 'is_pinned', 'priority', 'updated_at', 'id'];

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('notebooks'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('color', 'varchar(7)', (col) => col.notNull().defaultTo('#4f6d7a'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('notebooks_owner_title').on('notebooks').columns(['owner_id', 'title']).execute();

  await withId(db, db.schema.createTable('tags'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (col) => col.notNull())
    .addColumn('color', 'varchar(7)', (col) => col.notNull().defaultTo('#6c757d'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  // "work" and "Work" are one tag: unique per owner regardless of case.
  await db.schema.createIndex('tags_owner_name_ci').on('tags').unique().columns(['owner_id']).expression(sql`lower(name)`).execute();

  await withId(db, db.schema.createTable('notes'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull().defaultTo(''))
    // A plain-text preview written with the content, so the list never reads whole notes.
    .addColumn('excerpt', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    .addColumn('notebook_id', 'integer', (col) => col.references('notebooks.id').onDelete('set null'))
    .addColumn('group_id', 'integer', (col) => col.references('groups.id').onDelete('set null'))
    .addColumn('priority', 'smallint', (col) => col.notNull().defaultTo(0).check(sql`priority between 0 and 3`))
    .addColumn('is_pinned', 'smallint', (col) => col.notNull().defaultTo(0))
    .addColumn('is_archived', 'smallint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('notes_owner_list').on('notes').columns(['owner_id', ...LIST_ORDER]).execute();
  // owner_id last: the group branch skips the reader's own notes (listed by the owner branch)
  // from the index alone, without reading note rows.
  await db.schema.createIndex('notes_group_list').on('notes').columns(['group_id', ...LIST_ORDER, 'owner_id']).execute();
  // Search walks matching ids newest first and checks each one's visibility: this small
  // covering index answers that without reading the (large) note row.
  await db.schema.createIndex('notes_visibility').on('notes').columns(['id', 'owner_id', 'group_id', 'is_archived']).execute();
  await db.schema.createIndex('notes_notebook_list').on('notes').columns(['notebook_id', ...LIST_ORDER]).execute();

  await db.schema
    .createTable('note_tags')
    .addColumn('note_id', 'integer', (col) => col.notNull().references('notes.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (col) => col.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('note_tags_pk', ['note_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('note_tags_tag').on('note_tags').columns(['tag_id', 'note_id']).execute();

  if (isPostgres(db)) await addPostgresSearch(db);
  else await addSqliteSearch(db);
}

/** A stored tsvector of title (weight A) and content (weight B), with a GIN index. */
async function addPostgresSearch(db: Kysely<any>): Promise<void> {
  await sql`alter table notes add column search_vector tsvector generated always as (
    setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', content), 'B')
  ) stored`.execute(db);
  await sql`create index notes_search on notes using gin (search_vector)`.execute(db);
}

/** An FTS5 index over notes' title and content, kept in step by triggers (external content). */
async function addSqliteSearch(db: Kysely<any>): Promise<void> {
  await sql`create virtual table notes_fts using fts5(
    title, content, content='notes', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger notes_fts_insert after insert on notes begin
    insert into notes_fts(rowid, title, content) values (new.id, new.title, new.content);
  end`.execute(db);
  await sql`create trigger notes_fts_delete after delete on notes begin
    insert into notes_fts(notes_fts, rowid, title, content) values ('delete', old.id, old.title, old.content);
  end`.execute(db);
  // Only a change of the indexed text touches the index: pinning or archiving costs nothing.
  await sql`create trigger notes_fts_update after update of title, content on notes begin
    insert into notes_fts(notes_fts, rowid, title, content) values ('delete', old.id, old.title, old.content);
    insert into notes_fts(rowid, title, content) values (new.id, new.title, new.content);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    for (const trigger of ['notes_fts_update', 'notes_fts_delete', 'notes_fts_insert']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table if exists notes_fts`.execute(db);
  }
  await db.schema.dropTable('note_tags').execute();
  await db.schema.dropTable('notes').execute();
  await db.schema.dropTable('tags').execute();
  await db.schema.dropTable('notebooks').execute();
}
