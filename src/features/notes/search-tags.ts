import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { type MatchingIds, type SearchPage, type SearchTerms, matchingNotesQuery } from './search.js';

type NotesScope = Parameters<typeof matchingNotesQuery>[2];

/**
 * The ids of the caller's notes carrying one of the caller's own tags whose name holds every term
 * at the start of a word (the text search's prefix match), compared as keys (`tags.name_key`,
 * identity-key.ts: the terms are folded the same way; they hold letters and digits only, so no
 * LIKE wildcard). Tag names are not stemmed: they are compared with the words as typed
 * (`SearchTerms.tags`). Tags are their owner's private filing (SPEC's matrix): only the caller's own
 * are searched, and they are only ever on the caller's own notes, so a group member's search
 * never matches a shared note by its owner's tag names, which the member cannot see either.
 * Read from the owner's tags (tags_owner_name_key) through note_tags_tag: a few rows.
 */
function taggedNoteIds(db: Kysely<Database>, userId: number, terms: string[]) {
  const keys = terms.map((term) => identityKey(term)).filter((key) => key !== '');
  return db
    .selectFrom('tags')
    .innerJoin('note_tags', 'note_tags.tag_id', 'tags.id')
    .select('note_tags.note_id as id')
    .distinct()
    .where('tags.owner_id', '=', userId)
    .where((eb) => eb.and(keys.map((key) => eb(sql<string>`' ' || tags.name_key`, 'like', `% ${key}%`))));
}

/**
 * The notes of `scope` whose title or content holds every term (matchingNotesQuery's plan, kept
 * whole inside its branch) or that carry one of the caller's tags named by them. Each branch is
 * cut to the rows the page could need, newest first, and the two are merged (UNION drops a note
 * found both ways). The tag branch starts from the caller's matching tags, so it costs a few
 * index reads whatever the number of notes.
 */
export function searchMatches(db: Kysely<Database>, dialect: Dialect, scope: NotesScope, userId: number, terms: SearchTerms, page: SearchPage): MatchingIds | null {
  if (terms.tags.length === 0) return matchingNotesQuery(db, dialect, scope, terms.text, page);
  const needed = page.offset + page.limit;
  const text = matchingNotesQuery(db, dialect, scope, terms.text, { limit: needed, offset: 0 });
  if (!text) return null;
  const tagged = scope
    .innerJoin(taggedNoteIds(db, userId, terms.tags).as('tagged'), 'tagged.id', 'notes.id')
    .select('notes.id')
    .orderBy('notes.id', 'desc')
    .limit(needed);
  // Unqualified: the ORDER BY of a compound SELECT names its result column.
  return db
    .selectFrom(text.as('text'))
    .select('text.id')
    .union(db.selectFrom(tagged.as('tagged_notes')).select('tagged_notes.id'))
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}
