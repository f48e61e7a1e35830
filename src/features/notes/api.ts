import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Notifier } from '../../services.js';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { callerGroupIds } from '../groups/index.js';
import { ApiError } from '../../platform/api/errors.js';
import { apiRoute, checkIfMatch, pkParams } from '../../platform/api/routes.js';
import { decodeCursor, encodeCursor, nextUrl, pageOf } from '../../platform/api/paging.js';
import type { FormErrors } from '../../platform/forms.js';
import { type FullNotePage, NotesApiRepository } from './api-repository.js';
import { listCursor, noteCreateBody, noteJson, noteListQuery, notePatchBody, noteToJson, searchCursor } from './api-schemas.js';
import type { NoteForm } from './forms.js';
import type { NoteFilters } from './repository.js';
import { searchTerms } from './search.js';
import { NotesService, type SaveOutcome } from './service.js';

export interface NotesApiDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Tells a group's members of a note put into it. */
  notifications?: Notifier;
}

const TAG = 'notes';
/** The paths of the Django application's API, which its clients still call. */
const OLD = '/api/notes/';

export const noteLocation = (id: number) => `/api/v1/notes/${id}/`;

/** A form's refusal (a link to someone else's notebook, tag or group) as the API's 400. */
export function invalidBody(errors: FormErrors): ApiError {
  return new ApiError(400, 'invalid', 'notes_api.invalid_body', errors);
}

function saved(outcome: SaveOutcome): number {
  if (!outcome.ok) throw invalidBody(outcome.errors);
  return outcome.id;
}

/**
 * `/api/v1/notes/`: the notes pages' operations as JSON, with the pages' authorization. Anyone
 * who sees a note (its owner, its group's members) reads it; only its owner changes it, and
 * anyone else gets the 404 of a missing note. Every read and write goes through NotesService and
 * the notes repositories, the pages' own.
 */
export function notesApi(app: FastifyInstance, { db, dialect, notifications }: NotesApiDeps): void {
  const service = new NotesService(db, dialect, notifications);
  const notes = new NotesApiRepository(db, dialect);

  const shown = async (userId: number, id: number) => {
    const note = await notes.findVisibleNote(userId, id);
    if (!note) throw new NotFound();
    return noteToJson(note, userId);
  };

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notes/',
    aliases: [OLD],
    tag: TAG,
    summary: 'Your notes and your groups\' notes, as the notes page lists them (pinned first, then by priority, then most recently updated); a search newest first.',
    query: noteListQuery,
    response: pageOf(noteJson),
    errors: [404],
    handler: async ({ user, query, request }) => {
      // Filters name the caller's own notebook or tag; any other id is the same 404 as on the page.
      if (query.notebook !== undefined && !(await service.notebooks.findOwned(user.id, query.notebook))) throw new NotFound();
      if (query.tag !== undefined && !(await service.tags.findOwned(user.id, query.tag))) throw new NotFound();
      const filters: NoteFilters = { archived: query.archived, notebookId: query.notebook, tagId: query.tag };
      let page: FullNotePage;
      let lastKey: (note: FullNotePage['notes'][number]) => (number | null)[];
      if (query.q) {
        // Search results come newest first by id (search.ts: not ranked, so that a page stops
        // early): the last id places the next page exactly, and the cursor holds nothing else.
        const [beforeId] = query.cursor === undefined ? [null] : decodeCursor(query.cursor, searchCursor);
        page = await notes.searchVisibleAfter(user.id, searchTerms(query.q), filters, beforeId, query.limit);
        lastKey = (note) => [note.id];
      } else {
        const after = query.cursor === undefined ? null : decodeCursor(query.cursor, listCursor);
        page = await notes.listVisibleAfter(user.id, filters, after, query.limit, callerGroupIds(request));
        lastKey = (note) => [note.is_pinned, note.priority, note.updated_at, note.id];
      }
      const last = page.notes.at(-1);
      return { results: page.notes.map((note) => noteToJson(note, user.id)), next: nextUrl(request, page.hasNext && last ? encodeCursor(lastKey(last)) : null) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notes/',
    aliases: [OLD],
    tag: TAG,
    summary: 'Creates a note of yours; notebook and tags must be yours, the group one you belong to.',
    body: noteCreateBody,
    status: 201,
    response: noteJson,
    errors: [403],
    location: (note) => noteLocation(note.id),
    handler: async ({ user, body }) => {
      const form: NoteForm = { ...body, is_pinned: body.is_pinned ? 1 : 0, is_archived: body.is_archived ? 1 : 0 };
      return shown(user.id, saved(await service.create(user.id, form)));
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notes/:pk/',
    aliases: [`${OLD}:pk/`],
    tag: TAG,
    summary: 'A note you own or that is in one of your groups.',
    params: pkParams,
    response: noteJson,
    errors: [404],
    handler: ({ user, params }) => shown(user.id, params.pk),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: '/api/v1/notes/:pk/',
    aliases: [`${OLD}:pk/`],
    tag: TAG,
    summary: 'Changes the fields given of a note you own; with If-Match, only if it is unchanged since you read it.',
    params: pkParams,
    body: notePatchBody,
    response: noteJson,
    errors: [403, 404, 412],
    // One transaction: the note is locked, read as GET shows it and checked against If-Match,
    // then written with the page's own update (NotesService.update), and read back. No other
    // write can come between the check and this one.
    handler: async ({ user, params, body, request }) => {
      // Open pages are told of notifications once the transaction has committed.
      const later: (() => void)[] = [];
      const answer = await db.transaction().execute(async (trx) => {
        const locked = new NotesApiRepository(trx, dialect);
        if (!(await locked.lockOwned(user.id, params.pk))) throw new NotFound();
        const current = await locked.findVisibleNote(user.id, params.pk);
        if (!current) throw new NotFound();
        const before = noteToJson(current, user.id);
        checkIfMatch(request, before);
        if (Object.keys(body).length === 0) return before;
        const form: NoteForm = {
          title: body.title ?? current.title,
          content: body.content ?? current.content,
          notebook: body.notebook === undefined ? current.notebook_id : body.notebook,
          tags: body.tags ?? before.tags,
          group: body.group === undefined ? current.group_id : body.group,
          priority: body.priority ?? current.priority,
          is_pinned: (body.is_pinned ?? before.is_pinned) ? 1 : 0,
          is_archived: (body.is_archived ?? before.is_archived) ? 1 : 0,
        };
        saved(await new NotesService(trx, dialect, notifications, (work) => later.push(work)).update(user.id, params.pk, form));
        const after = await locked.findVisibleNote(user.id, params.pk);
        return noteToJson(after!, user.id);
      });
      for (const work of later) work();
      return answer;
    },
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/notes/:pk/',
    aliases: [`${OLD}:pk/`],
    tag: TAG,
    summary: 'Deletes a note you own (its group no longer sees it either).',
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: ({ user, params }) => service.delete(user.id, params.pk),
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notes/:pk/pin/',
    aliases: [`${OLD}:pk/pin/`],
    tag: TAG,
    summary: 'Pins a note you own, or unpins it if pinned; answers the note.',
    params: pkParams,
    response: noteJson,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      await service.togglePin(user.id, params.pk);
      return shown(user.id, params.pk);
    },
  });
}
