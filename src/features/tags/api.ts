import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, Tag } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { ApiError } from '../../platform/api/errors.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { checkedChange } from '../../platform/api/changes.js';
import { cursorAfter, nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { MAX_ID } from '../../platform/ids.js';
import { tagForm } from './forms.js';
import { type TagOutcome, TagsService } from './service.js';

const tagJson = z.object({ id: z.number().int(), name: z.string(), color: z.string().describe('`#rrggbb`.') });
type TagJson = z.infer<typeof tagJson>;

/** The page's form, field for field: the same messages, and nothing else may come with it. */
const createBody = tagForm.strict();
/** An update names only the fields it changes. */
const updateBody = tagForm.partial().strict();
const listQuery = z.object(pagingQuery);
/** The list's cursor: the id of the last tag of the page. */
const cursorShape = z.tuple([z.number().int().positive().max(MAX_ID)]);

const toJson = ({ id, name, color }: Tag): TagJson => ({ id, name, color });

/** A name the owner already has (by identity key, as the form says it) is the form's 400 on `name`. */
function saved(outcome: TagOutcome): asserts outcome is TagOutcome & { ok: true } {
  if (!outcome.ok) throw new ApiError(400, 'invalid', 'notes_api.invalid_body', outcome.errors);
}

/** /api/v1/tags/: the caller's own tags, through the service the pages use; anyone else's is a 404. */
export function tagsApi(app: FastifyInstance, { db }: { db: Kysely<Database> }): void {
  const service = new TagsService(db);

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/tags/',
    tag: 'tags',
    summary: 'Your tags, oldest first.',
    query: listQuery,
    response: pageOf(tagJson),
    handler: async ({ user, query, request }) => {
      const rows = await service.tags.pageOwned(user.id, cursorAfter(query.cursor, cursorShape)?.[0] ?? null, query.limit + 1);
      const page = pageRows(rows, query.limit, (row) => [row.id]);
      return { results: page.rows.map(toJson), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/tags/',
    tag: 'tags',
    summary: 'Create a tag; its name must differ from your other tags’ (ignoring case and look-alike letters).',
    body: createBody,
    status: 201,
    response: tagJson,
    location: (tag) => `/api/v1/tags/${tag.id}/`,
    handler: async ({ user, body }) => {
      const outcome = await service.create(user.id, body);
      saved(outcome);
      // A create's outcome always carries the new tag.
      return toJson(outcome.tag!);
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/tags/:pk/',
    tag: 'tags',
    summary: 'One of your tags.',
    params: pkParams,
    response: tagJson,
    errors: [404],
    handler: async ({ user, params }) => toJson(await service.ownedOr404(user.id, params.pk)),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: '/api/v1/tags/:pk/',
    tag: 'tags',
    summary: 'Rename or recolour a tag (If-Match: its ETag, to change only the version you read).',
    params: pkParams,
    body: updateBody,
    response: tagJson,
    errors: [403, 404, 412],
    // Read, checked against If-Match and written under one row lock, by the pages' service on the transaction.
    handler: ({ user, params, body, request }) =>
      checkedChange(db, request, {
        on: (trx) => new TagsService(trx),
        lock: async (inTransaction) => {
          if (!(await inTransaction.tags.findOwned(user.id, params.pk, { lock: true }))) throw new NotFound();
        },
        read: async (inTransaction) => toJson(await inTransaction.ownedOr404(user.id, params.pk)),
        write: async (inTransaction, current) => {
          saved(await inTransaction.update(user.id, params.pk, { name: body.name ?? current.name, color: body.color ?? current.color }));
        },
      }),
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/tags/:pk/',
    tag: 'tags',
    summary: 'Delete a tag; it comes off its notes, which stay.',
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: ({ user, params }) => service.delete(user.id, params.pk),
  });
}
