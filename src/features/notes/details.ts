import type { Kysely } from 'kysely';
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
 * caller may see, so it is not exported from the feature's repository.
 */
export class NoteDetailsReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Rows in the order of `ids`. */
  async rowsFor(ids: number[]): Promise<NoteRow[]> {
    if (ids.length === 0) return [];
    const [rows, tags] = await Promise.all([
      this.db
        .selectFrom('notes')
        .innerJoin('users', 'users.id', 'notes.owner_id')
        .leftJoin('groups', 'groups.id', 'notes.group_id')
        .leftJoin('notebooks', 'notebooks.id', 'notes.notebook_id')
        .select([
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
        ])
        .where('notes.id', 'in', ids)
        .execute(),
      this.tagsFor(ids),
    ]);
    const byId = new Map(rows.map((row) => [row.id, { ...row, tags: tags.get(row.id) ?? [] }]));
    return ids.map((id) => byId.get(id)).filter((row): row is NoteRow => row !== undefined);
  }

  async tagsFor(noteIds: number[]): Promise<Map<number, TagChip[]>> {
    const byNote = new Map<number, TagChip[]>();
    if (noteIds.length === 0) return byNote;
    const rows = await this.db
      .selectFrom('note_tags')
      .innerJoin('tags', 'tags.id', 'note_tags.tag_id')
      .select(['note_tags.note_id', 'tags.id', 'tags.name', 'tags.color'])
      .where('note_tags.note_id', 'in', noteIds)
      .orderBy('tags.name_key')
      .execute();
    for (const { note_id, ...tag } of rows) {
      const list = byNote.get(note_id) ?? [];
      list.push(tag);
      byNote.set(note_id, list);
    }
    return byNote;
  }
}
