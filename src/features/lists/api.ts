import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { type AfterCommit, checkedChange } from '../../platform/api/changes.js';
import { ApiError } from '../../platform/api/errors.js';
import { cursorAfter, nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import type { FormErrors } from '../../platform/forms.js';
import { MAX_ID } from '../../platform/ids.js';
import { shareBody } from './api-schemas.js';
import type { ItemRow, ListRow } from './kind.js';
import type { LiveListEvents } from './live-events.js';
import type { NamedList } from './repository.js';
import type { ListPage, ListService } from './service.js';
import type { SharedUser } from './sharing.js';

// The JSON API of every kind of list, `/api/v1/<kind>/`: the pages' service and permissions
// (readers read, whoever may tick ticks and adds, the owner changes), the If-Match read-check-write
// and paging. A kind gives its JSON shapes and how its fields map to its forms' inputs.

/** What a kind's API says and shows. */
export interface ListApi<List extends ListRow, Item extends ItemRow, ListInput, ItemInput, ListJson extends { id: number }, ItemJson extends { id: number }> {
  /** What each operation does, in English, for the OpenAPI document. */
  summaries: { list: string; create: string; get: string; patch: string; addItem: string; patchItem: string };
  listJson: z.ZodType<ListJson>;
  itemJson: z.ZodType<ItemJson>;
  /** The list's detail: its JSON with its items (`items`). */
  detailJson: z.ZodType<ListJson & { items: ItemJson[] }>;
  /** The body of a create, read as the form's input. */
  listBody: z.ZodType<ListInput>;
  /** The body of a change, which names only the fields it changes: with the list as it is, the form's input. */
  listPatch: z.ZodType<Partial<ListInput>>;
  itemBody: z.ZodType<ItemInput>;
  /** The body that ticks an item or not (`is_done`, `is_bought`): done or not. */
  itemPatch: z.ZodType<boolean>;
  /** A list as JSON, without its items; `items`, when given, are all its items (the page's). */
  listOut(list: NamedList<List>, userId: number, sharedWith: SharedUser[], items?: Item[]): ListJson;
  /** A list's input as it is now, to fill what a change leaves out. */
  current(json: ListJson): ListInput;
  itemOut(item: Item): ItemJson;
}

/** A form's errors (from a service) as the API's 400, with the same messages per field. */
export function invalid(errors: FormErrors): never {
  throw new ApiError(400, 'invalid', 'lists.invalid_body', errors);
}

// Lists are paged by the index's order, most recently changed first: [updated_at, id] is unique.
const listCursor = z.tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.number().int().min(1).max(MAX_ID)]);

export function listApiRoutes<List extends ListRow, Item extends ItemRow, ListInput, ItemInput, ListJson extends { id: number }, ItemJson extends { id: number }>(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; service: ListService<List, Item, ListInput, ItemInput>; live?: LiveListEvents },
  api: ListApi<List, Item, ListInput, ItemInput, ListJson, ItemJson>,
): void {
  const { db, service } = deps;
  const { kind } = service;
  const tag = kind.name;
  const base = `/api/v1/${kind.name}`;
  /** The service on a transaction, announcing what it changes only once that has committed. */
  const on = (trx: Kysely<Database>, later: AfterCommit) => service.on(trx, deps.live?.deferred(later, db) ?? null);
  const detail = async (on: ListService<List, Item, ListInput, ItemInput>, userId: number, listId: number) => {
    const page: ListPage<List, Item> = await on.page(userId, listId);
    return { ...api.listOut(page.list, userId, page.sharedWith, page.items), items: page.items.map((item) => api.itemOut(item)) };
  };

  apiRoute(app, {
    method: 'GET',
    path: `${base}/`,
    tag,
    summary: api.summaries.list,
    query: z.object(pagingQuery),
    response: pageOf(api.listJson),
    handler: async ({ user, query, request }) => {
      const rows = await service.listsAfter(user.id, cursorAfter(query.cursor, listCursor), query.limit + 1);
      const page = pageRows(rows, query.limit, (row) => [row.updated_at, row.id]);
      return { results: page.rows.map((row) => api.listOut(row, user.id, row.sharedWith)), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: `${base}/`,
    tag,
    summary: api.summaries.create,
    body: api.listBody,
    status: 201,
    response: api.detailJson,
    location: (list) => `${base}/${list.id}/`,
    errors: [403],
    handler: async ({ user, body }) => {
      const created = await service.create(user.id, body);
      if (!created.ok) invalid(created.errors);
      return detail(service, user.id, created.value);
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: `${base}/:pk/`,
    tag,
    summary: api.summaries.get,
    params: pkParams,
    response: api.detailJson,
    errors: [404],
    handler: ({ user, params }) => detail(service, user.id, params.pk),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${base}/:pk/`,
    tag,
    summary: api.summaries.patch,
    params: pkParams,
    body: api.listPatch,
    response: api.detailJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(db, request, {
        on,
        lock: (inside) => inside.lockOwned(user.id, params.pk),
        read: (inside) => detail(inside, user.id, params.pk),
        write: async (inside, current) => {
          const updated = await inside.update(user.id, params.pk, { ...api.current(current), ...withoutUndefined(body) });
          if (!updated.ok) invalid(updated.errors);
        },
      }),
  });

  apiRoute(app, {
    method: 'POST',
    path: `${base}/:pk/items/`,
    tag,
    summary: api.summaries.addItem,
    params: pkParams,
    body: api.itemBody,
    status: 201,
    response: api.itemJson,
    location: (item) => `${base}/items/${item.id}/`,
    errors: [403, 404],
    handler: async ({ user, params, body }) => {
      const added = await service.addItem(user.id, params.pk, body);
      if (!added.ok) invalid(added.errors);
      return api.itemOut(await service.item(user.id, added.value));
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: `${base}/items/:pk/`,
    tag,
    summary: `An item of a ${kind.noun}.`,
    params: pkParams,
    response: api.itemJson,
    errors: [404],
    handler: async ({ user, params }) => api.itemOut(await service.item(user.id, params.pk)),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${base}/items/:pk/`,
    tag,
    summary: api.summaries.patchItem,
    params: pkParams,
    body: api.itemPatch,
    response: api.itemJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(db, request, {
        on,
        lock: (inside) => inside.lockTickableItem(user.id, params.pk),
        read: async (inside) => api.itemOut(await inside.item(user.id, params.pk)),
        write: async (inside) => {
          await inside.markItem(user.id, params.pk, body);
        },
      }),
  });

  apiRoute(app, {
    method: 'DELETE',
    path: `${base}/:pk/`,
    tag,
    summary: `Delete a ${kind.noun} with its items and shares (owner only).`,
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => service.delete(user.id, params.pk),
  });

  apiRoute(app, {
    method: 'POST',
    path: `${base}/:pk/share/`,
    tag,
    summary: `Share a ${kind.noun} with a user, or stop sharing it (owner only); answers the list.`,
    params: pkParams,
    body: shareBody,
    response: api.detailJson,
    errors: [403, 404],
    handler: async ({ user, params, body }) => {
      const outcome = await service.share(user.id, params.pk, { username: body.username, action: body.action, permission: body.permission ?? 'read' }, user.username);
      if (!outcome.ok) invalid(outcome.errors);
      return detail(service, user.id, params.pk);
    },
  });

  apiRoute(app, {
    method: 'DELETE',
    path: `${base}/items/:pk/`,
    tag,
    summary: `Delete an item of a ${kind.noun} (owner only).`,
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      await service.deleteItem(user.id, params.pk);
    },
  });
}

/** The fields a change names: one left out (undefined) keeps the list's. */
function withoutUndefined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
