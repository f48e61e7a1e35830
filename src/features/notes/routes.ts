import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.js';
import { formValues, parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import type { FormErrors } from '../../platform/forms.js';
import { viewContext } from '../../platform/views/context.js';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { noteForm } from './forms.js';
import { idOr404, parseId, pathId } from '../../platform/ids.js';
import { type ListQuery, NoteListPage } from './list-views.js';
import { DeletedNotePage, NoteDetailPage, NoteFormPage, type NoteFormValues } from './note-views.js';
import { NotebookDetailPage } from './notebook-page.js';
import { searchTerms } from './search.js';
import { NotesService } from './service.js';
import { callerGroupIds } from '../groups/index.js';
import { notesApi } from './api.js';
import { NotesApiRepository } from './api-repository.js';
import { remindersApi } from './api-reminders.js';
import { ReminderScheduler } from './reminder-scheduler.js';
import { RemindersRepository } from './reminders-repository.js';
import { reminderRoutes } from './reminders-routes.js';
import type { ReminderFormState } from './reminders-views.js';
import type { ObjectToken } from '../../platform/views/render.js';
import type { ViewContext } from '../../platform/views/context.js';
import { notePageToken, noteTokenColumn, noteTokenOf } from './note-token.js';

type PkParams = { Params: { pk: string } };
type ListParams = { Querystring: Record<string, string | string[] | undefined> };

const MAX_PAGE = 10_000;
const MAX_QUERY_LENGTH = 200;
/**
 * "20 or more archived notes also match": the count stops there. Enough to say "many, go and
 * look"; on PostgreSQL a count of 101 had to go past the newest notes for a common word (60 ms
 * p99 over 100,000 notes, where the page itself takes 3), see search.ts's two tiers.
 */
const OTHER_MATCHES_CAP = 20;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What was typed, including every ticked tag, to show the form again as it was. */
function typedValues(body: unknown): NoteFormValues {
  const raw = body && typeof body === 'object' && 'tags' in body ? (body as { tags: unknown }).tags : [];
  const tagIds = [raw].flat().filter((value): value is string => typeof value === 'string');
  return { values: formValues(body), tagIds };
}

export const notePages: FastifyPluginAsync<Services> = async (app, { db, dialect, config, notifications, outbox, background }) => {
  const service = new NotesService(db, dialect, notifications);
  const reminders = new RemindersRepository(db, dialect);
  const scheduler = new ReminderScheduler({ db, dialect, notifications, outbox, publicUrl: config.publicUrl, log: app.log }, { pollMs: config.reminderPollMs });
  background.add(scheduler);

  /** A note the caller may see; its owner also gets its reminders and their add form. */
  const notePage = async (ctx: ViewContext, userId: number, noteId: number, form?: ReminderFormState, keepUnder?: (read: ObjectToken) => void) => {
    const note = await service.notes.findVisibleNote(userId, noteId);
    if (!note) throw new NotFound();
    keepUnder?.(notePageToken(userId, note.owner_id, note.token));
    return NoteDetailPage({ ctx, note, reminders: note.owner_id === userId ? { items: note.reminders, form } : undefined });
  };
  reminderRoutes(app, { reminders, scheduler, ownedOr404: (userId, noteId) => service.ownedOr404(userId, noteId), notePage });
  notesApi(app, { db, dialect, notifications });
  remindersApi(app, { notes: new NotesApiRepository(db, dialect), reminders, scheduler });

  const showForm = async (request: FastifyRequest, status: number, props: { noteId?: number; typed?: NoteFormValues; errors?: FormErrors }) => ({
    page: NoteFormPage({ ctx: viewContext(request), choices: await service.formChoices(request.user!.id), ...props }),
    status,
  });

  // A notebook's page: its first notes (the rest on the list filtered by it). Anyone else's is a 404.
  app.get('/notebooks/:pk/', async (request, reply) => {
    const notebook = await service.notebooks.findOwned(request.user!.id, pathId(request));
    if (!notebook) throw new NotFound();
    const result = await service.notes.listVisiblePage(request.user!.id, { archived: false, notebookId: notebook.id }, 1);
    return reply.render(NotebookDetailPage({ ctx: viewContext(request), notebook, result }));
  });

  app.get<ListParams>('/notes/', async (request, reply) => {
    const userId = request.user!.id;
    const params = request.query;
    const pageParam = first(params.page);
    const page = pageParam === undefined ? 1 : idOr404(pageParam);
    if (page > MAX_PAGE) throw new NotFound();
    const q = (first(params.q) ?? '').trim().slice(0, MAX_QUERY_LENGTH);
    const archived = first(params.archived) === '1';
    const notebookParam = first(params.notebook);
    const notebookId = notebookParam === undefined || notebookParam === '' ? undefined : idOr404(notebookParam);
    const tagParam = first(params.tag);
    const tagId = tagParam === undefined || tagParam === '' ? undefined : idOr404(tagParam);
    // The page is kept while the caller's view token is unchanged (renderCached): everything it
    // is read from, the filters' notebook and tag included, is read inside build.
    return reply.renderCached(JSON.stringify([q, archived, notebookId, tagId, page]), async (ctx) => {
      const query: ListQuery = { q, archived };
      // Filters name the caller's own notebook or tag; any other id is the same 404 as a missing one.
      if (notebookId !== undefined) {
        const notebook = await service.notebooks.findOwned(userId, notebookId);
        if (!notebook) throw new NotFound();
        query.notebook = { id: notebook.id, title: notebook.title };
      }
      if (tagId !== undefined) {
        const tag = await service.tags.findOwned(userId, tagId);
        if (!tag) throw new NotFound();
        query.tag = { id: tag.id, name: tag.name };
      }
      const filters = { archived, notebookId, tagId };
      if (!q) {
        const result = await service.notes.listVisiblePage(userId, filters, page, callerGroupIds(request));
        if (page > 1 && result.notes.length === 0) throw new NotFound();
        return NoteListPage({ ctx, query, result });
      }
      // A search also matches the caller's own tags by name, and its first page says how many
      // notes on the other side of the archive match too (one count, capped). The two are
      // independent reads, sent together: on PostgreSQL each runs on its own connection, so the
      // page waits for the slower one rather than for both in turn.
      const terms = searchTerms(q);
      const [result, count] = await Promise.all([
        service.notes.searchVisiblePage(userId, terms, filters, page),
        page === 1 ? service.notes.countSearchMatches(userId, terms, { ...filters, archived: !archived }, OTHER_MATCHES_CAP + 1) : 0,
      ]);
      if (page > 1 && result.notes.length === 0) throw new NotFound();
      return NoteListPage({ ctx, query, result, other: { count: Math.min(count, OTHER_MATCHES_CAP), capped: count > OTHER_MATCHES_CAP } });
    });
  });

  app.get<ListParams>('/notes/new/', async (request, reply) => {
    // ?notebook=&tag= preselect the caller's own notebook or tag (from a notebook's page or a
    // filtered list); any other id is ignored silently, like a missing one: nothing to probe.
    const choices = await service.formChoices(request.user!.id);
    const notebook = parseId(first(request.query.notebook));
    const tag = parseId(first(request.query.tag));
    const values = { notebook: choices.notebooks.some((nb) => nb.id === notebook) ? String(notebook) : '' };
    const tagIds = choices.tags.some((t) => t.id === tag) ? [String(tag)] : [];
    return reply.render(NoteFormPage({ ctx: viewContext(request), choices, typed: { values, tagIds } }), 200);
  });

  app.post('/notes/new/', async (request, reply) => {
    const form = parseForm(noteForm, request.body);
    const saved = form.ok ? await service.create(request.user!.id, form.data) : form;
    if (!saved.ok) {
      const { page, status } = await showForm(request, 400, { typed: typedValues(request.body), errors: saved.errors });
      return reply.render(page, status);
    }
    request.flash('note.created');
    return reply.redirect(`/notes/${saved.id}/`, 302);
  });

  // Kept under the note's own token (its reminders move it too): changes to the group's other
  // notes leave the page kept. The reader's time zone (the owner's add form names it) is part of
  // every kept page's key already (render.ts). The token is read with the session (noteTokenColumn)
  // while pages are kept.
  const noteRoute = { config: { routeColumn: config.pageCacheBytes > 0 ? noteTokenColumn : undefined } };
  app.get<PkParams>('/notes/:pk/', noteRoute, async (request, reply) => {
    const noteId = pathId(request);
    const userId = request.user!.id;
    const value = request.session?.routeValue;
    try {
      return await reply.renderCached(
        '',
        (ctx, keepUnder) => notePage(ctx, userId, noteId, undefined, keepUnder),
        // No route column (the cache is off) means no kept page to check: the token is not asked for then.
        { token: async () => (value === undefined ? undefined : noteTokenOf(userId, value)) },
      );
    } catch (error) {
      // Gone back to a deleted note: those who could read it are told so (410); anyone else gets the 404.
      const deleted = error instanceof NotFound ? await service.notes.deletedFor(userId, noteId) : undefined;
      if (!deleted) throw error;
      return reply.render(DeletedNotePage({ ctx: viewContext(request), ...deleted }), 410);
    }
  });

  app.get<PkParams>('/notes/:pk/edit/', async (request, reply) => {
    const note = await service.ownedOr404(request.user!.id, pathId(request));
    const values = {
      title: note.title,
      content: note.content,
      notebook: note.notebook_id === null ? '' : String(note.notebook_id),
      group: note.group_id === null ? '' : String(note.group_id),
      priority: String(note.priority),
      is_pinned: note.is_pinned ? 'on' : '',
      is_archived: note.is_archived ? 'on' : '',
    };
    const tagIds = (await service.notes.ownedNoteTagIds(request.user!.id, note.id)).map(String);
    const { page, status } = await showForm(request, 200, { noteId: note.id, typed: { values, tagIds } });
    return reply.render(page, status);
  });

  app.post<PkParams>('/notes/:pk/edit/', async (request, reply) => {
    // A note the caller cannot change is a 404 whatever the form holds: update checks it with the
    // form's choices, in one statement; an invalid form asks alone.
    const noteId = pathId(request);
    const form = parseForm(noteForm, request.body);
    if (!form.ok) await service.ownedOr404(request.user!.id, noteId);
    const saved = form.ok ? await service.update(request.user!.id, noteId, form.data) : form;
    if (!saved.ok) {
      const { page, status } = await showForm(request, 400, { noteId, typed: typedValues(request.body), errors: saved.errors });
      return reply.render(page, status);
    }
    request.flash('note.saved');
    return reply.redirect(`/notes/${noteId}/`, 302);
  });

  app.get<PkParams>('/notes/:pk/delete/', async (request, reply) => {
    const note = await service.ownedOr404(request.user!.id, pathId(request));
    const ctx = viewContext(request);
    return reply.render(
      DeleteConfirmPage({
        ctx,
        kind: 'note',
        name: note.title,
        action: `/notes/${note.id}/delete/`,
        cancel: `/notes/${note.id}/`,
        consequence: note.group_id === null ? ctx.t('note.delete_consequence') : ctx.t('note.delete_consequence_group'),
      }),
    );
  });

  app.post<PkParams>('/notes/:pk/delete/', async (request, reply) => {
    await service.delete(request.user!.id, pathId(request));
    request.flash('note.deleted');
    return reply.redirect('/notes/', 302);
  });

  // One click from the note's page; the owner's only, like pinning: anyone else gets the 404 of a missing note.
  app.post<PkParams>('/notes/:pk/archive/', async (request, reply) => {
    const noteId = pathId(request);
    const archived = await service.toggleArchive(request.user!.id, noteId);
    request.flash(archived ? 'note.archived_flash' : 'note.unarchived_flash');
    return reply.redirect(`/notes/${noteId}/`, 302);
  });

  app.post<PkParams>('/notes/:pk/pin/', async (request, reply) => {
    await service.togglePin(request.user!.id, pathId(request));
    return reply.redirect('/notes/', 302);
  });
};
