import type { Kysely } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { Database } from '../../db/schema.js';

export interface TagChip {
  id: number;
  name: string;
  color: string;
}

/** What a list row or a note page shows besides the content. */
export interface NoteRow {
  id: number;
  title: string;
  /** Plain-text preview of the content. */
  excerpt: string;
  owner_id: number;
  owner_username: string;
  group_id: number | null;
  group_name: string | null;
  notebook_id: number | null;
  notebook_title: string | null;
  notebook_color: string | null;
  priority: number;
  is_pinned: number;
  is_archived: number;
  updated_at: number;
  tags: TagChip[];
}

/**
 * Fills in rows for note ids that a scoped query already returned; it never decides what the
 * caller may see, so it is not exported from the feature's repository. A note's tags come in the
 * same query (a JSON array per row): one round trip per page, not one per kind of detail.
 */
export class NoteDetailsReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** The details of every note the query is narrowed to (by the caller); `full`: with the whole content and the creation time (the API's note). */
  query(full = false) {
    return this.db
      .selectFrom('notes')
      .innerJoin('users', 'users.id', 'notes.owner_id')
      .leftJoin('groups', 'groups.id', 'notes.group_id')
      .leftJoin('notebooks', 'notebooks.id', 'notes.notebook_id')
      .select((eb) => [
        'notes.id',
        'notes.title',
        'notes.excerpt',
        'notes.owner_id',
        'users.username as owner_username',
        'notes.group_id',
        'groups.name as group_name',
        'notes.notebook_id',
        'notebooks.title as notebook_title',
        'notebooks.color as notebook_color',
        'notes.priority',
        'notes.is_pinned',
        'notes.is_archived',
        'notes.updated_at',
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('note_tags')
            .innerJoin('tags', 'tags.id', 'note_tags.tag_id')
            .select(['tags.id', 'tags.name', 'tags.color'])
            .whereRef('note_tags.note_id', '=', 'notes.id')
            .orderBy('tags.name_key'),
        ).as('tags'),
      ])
      .$if(full, (query) => query.select(['notes.content', 'notes.created_at']));
  }

  /** A row as the views take it, its tags parsed. */
  static noteRow<R extends Omit<NoteRow, 'tags'> & { tags: unknown }>(row: R): Omit<R, 'tags'> & { tags: TagChip[] } {
    return { ...row, tags: parseJsonRows<TagChip>(row.tags) };
  }
}
