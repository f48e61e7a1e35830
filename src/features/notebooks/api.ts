import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, Notebook } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { MAX_ID } from '../../platform/ids.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { checkedChange } from '../../platform/api/changes.js';
import { cursorAfter, nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { notebookForm } from './forms.js';
import { ApiError } from '../../platform/api/errors.js';
import { NotebooksRepository, titleTaken, unlessTitleTaken } from './repository.js';

/** A title the owner already has (once folded) is the form's 400 on `title`; the write (and its transaction) is undone. */
async function titled<T>(title: string, write: () => Promise<T>): Promise<T> {
  const saved = await unlessTitleTaken(write);
  if (!saved.ok) throw new ApiError(400, 'invalid', 'notes_api.invalid_body', { title: [titleTaken(title)] });
  return saved.value;
}

const notebookJson = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  color: z.string().describe('`#rrggbb`.'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
type NotebookJson = z.infer<typeof notebookJson>;

/** The page's form, field for field: the same messages, and nothing else may come with it. */
const createBody = notebookForm.strict();
/** An update names only the fields it changes. */
const updateBody = notebookForm.partial().strict();
const listQuery = z.object(pagingQuery);
/** The list's cursor: the id of the last notebook of the page. */
const cursorShape = z.tuple([z.number().int().positive().max(MAX_ID)]);

function toJson(notebook: Notebook): NotebookJson {
  const { id, title, description, color } = notebook;
  return { id, title, description, color, created_at: new Date(notebook.created_at).toISOString(), updated_at: new Date(notebook.updated_at).toISOString() };
}

const location = (notebook: NotebookJson) => `/api/v1/notebooks/${notebook.id}/`;

/** /api/v1/notebooks/: the caller's own notebooks, through the repository the pages use; anyone else's is a 404. */
export function notebooksApi(app: FastifyInstance, { db }: { db: Kysely<Database> }): void {
  const notebooks = new NotebooksRepository(db);
  const ownedOr404 = async (ownerId: number, id: number, repository = notebooks, options: { lock?: boolean } = {}) => {
    const notebook = await repository.findOwned(ownerId, id, options);
    if (!notebook) throw new NotFound();
    return notebook;
  };

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notebooks/',
    tag: 'notebooks',
    summary: 'Your notebooks, oldest first.',
    query: listQuery,
    response: pageOf(notebookJson),
    handler: async ({ user, query, request }) => {
      const rows = await notebooks.pageOwned(user.id, cursorAfter(query.cursor, cursorShape)?.[0] ?? null, query.limit + 1);
      const page = pageRows(rows, query.limit, (row) => [row.id]);
      return { results: page.rows.map(toJson), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notebooks/',
    tag: 'notebooks',
    summary: 'Create a notebook.',
    body: createBody,
    status: 201,
    response: notebookJson,
    location,
    handler: async ({ user, body }) => toJson(await titled(body.title, () => notebooks.insert(user.id, body))),
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notebooks/:pk/',
    tag: 'notebooks',
    summary: 'One of your notebooks.',
    params: pkParams,
    response: notebookJson,
    errors: [404],
    handler: async ({ user, params }) => toJson(await ownedOr404(user.id, params.pk)),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: '/api/v1/notebooks/:pk/',
    tag: 'notebooks',
    summary: 'Change a notebook’s title, description or colour (If-Match: its ETag, to change only the version you read).',
    params: pkParams,
    body: updateBody,
    response: notebookJson,
    errors: [403, 404, 412],
    // Read, checked against If-Match and written under one row lock: no other write comes between.
    handler: ({ user, params, body, request }) =>
      titled(body.title ?? '', () =>
        checkedChange(db, request, {
          on: (trx) => new NotebooksRepository(trx),
          lock: async (repository) => {
            await ownedOr404(user.id, params.pk, repository, { lock: true });
          },
          read: async (repository) => toJson(await ownedOr404(user.id, params.pk, repository)),
          write: async (repository, current) => {
            await repository.updateOwned(user.id, params.pk, { title: body.title ?? current.title, description: body.description ?? current.description, color: body.color ?? current.color });
          },
        }),
      ),
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/notebooks/:pk/',
    tag: 'notebooks',
    summary: 'Delete a notebook; its notes are kept, without a notebook.',
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      if (!(await notebooks.deleteOwned(user.id, params.pk))) throw new NotFound();
    },
  });
}
