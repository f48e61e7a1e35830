import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import type { LiveListEvents } from '../lists-sharing/live-events.js';
import type { Notifications } from '../notifications/notifications.js';
import { invalid, listsAfter, ownerActionsApi } from '../lists-sharing/api.js';
import { checkedChange, type AfterCommit } from '../../platform/api/changes.js';
import {
  type ShoppingListDetailJson,
  shoppingItemBody,
  shoppingItemJson,
  shoppingItemOut,
  shoppingItemPatch,
  shoppingListBody,
  shoppingListDetailJson,
  shoppingListJson,
  shoppingListOut,
  shoppingListPatch,
} from './api-schemas.js';
import { ShoppingService } from './service.js';

const TAG = 'shopping';
const BASE = '/api/v1/shopping';

/** The JSON API of shopping lists: the pages' service and permissions (readers and group members read, the owner changes). */
export function shoppingApi(app: FastifyInstance, deps: { db: Kysely<Database>; notifications: Notifications; live?: LiveListEvents }): void {
  const on = (db: Kysely<Database>, later?: AfterCommit) => new ShoppingService(db, deps.notifications, later ? (deps.live?.deferred(later, deps.db) ?? null) : deps.live);
  const shopping = on(deps.db);
  const detail = async (service: ShoppingService, userId: number, listId: number): Promise<ShoppingListDetailJson> => {
    const page = await service.page(userId, listId);
    return { ...shoppingListOut(page.list, userId, page.sharedWith, page.items), items: page.items.map(shoppingItemOut) };
  };

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/`,
    tag: TAG,
    summary: 'Your shopping lists, those shared with you and those of your groups, most recently changed first (without their items).',
    query: z.object(pagingQuery),
    response: pageOf(shoppingListJson),
    handler: async ({ user, query, request }) => {
      const page = pageRows(await shopping.listsAfter(user.id, listsAfter(query.cursor), query.limit + 1), query.limit, (row) => [row.list.updated_at, row.list.id]);
      return { results: page.rows.map((row) => shoppingListOut(row.list, user.id, row.sharedWith, row.toBuy)), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: `${BASE}/`,
    tag: TAG,
    summary: 'Create a shopping list, for one of your groups or none.',
    body: shoppingListBody,
    status: 201,
    response: shoppingListDetailJson,
    location: (list) => `${BASE}/${list.id}/`,
    errors: [403],
    handler: async ({ user, body }) => {
      const created = await shopping.create(user.id, body);
      if (!created.ok) invalid(created.errors);
      return detail(shopping, user.id, created.value);
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/:pk/`,
    tag: TAG,
    summary: 'A shopping list with its items and the estimated total of those not yet bought.',
    params: pkParams,
    response: shoppingListDetailJson,
    errors: [404],
    handler: ({ user, params }) => detail(shopping, user.id, params.pk),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${BASE}/:pk/`,
    tag: TAG,
    summary: 'Change the title, store or group of a shopping list (owner only); If-Match honoured.',
    params: pkParams,
    body: shoppingListPatch,
    response: shoppingListDetailJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(deps.db, request, {
        on,
        lock: (service) => service.lockOwned(user.id, params.pk),
        read: (service) => detail(service, user.id, params.pk),
        write: async (service, current) => {
          const input = {
            title: body.title ?? current.title,
            store_name: body.store_name ?? current.store_name,
            group: body.group === undefined ? current.group : body.group,
            group_permission: body.group_permission ?? current.group_permission ?? 'read',
          };
          const updated = await service.update(user.id, params.pk, input);
          if (!updated.ok) invalid(updated.errors);
        },
      }),
  });

  apiRoute(app, {
    method: 'POST',
    path: `${BASE}/:pk/items/`,
    tag: TAG,
    summary: 'Add an item to a shopping list (owner, tick users, group members when the group may tick).',
    params: pkParams,
    body: shoppingItemBody,
    status: 201,
    response: shoppingItemJson,
    location: (item) => `${BASE}/items/${item.id}/`,
    errors: [403, 404],
    handler: async ({ user, params, body }) => shoppingItemOut(await shopping.item(user.id, await shopping.addItem(user.id, params.pk, body))),
  });

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/items/:pk/`,
    tag: TAG,
    summary: 'An item of a shopping list.',
    params: pkParams,
    response: shoppingItemJson,
    errors: [404],
    handler: async ({ user, params }) => shoppingItemOut(await shopping.item(user.id, params.pk)),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${BASE}/items/:pk/`,
    tag: TAG,
    summary: 'Mark an item bought or not bought (owner, tick users, group members when the group may tick); If-Match honoured.',
    params: pkParams,
    body: shoppingItemPatch,
    response: shoppingItemJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(deps.db, request, {
        on,
        lock: (service) => service.lockTickableItem(user.id, params.pk),
        read: async (service) => shoppingItemOut(await service.item(user.id, params.pk)),
        write: async (service) => {
          await service.markItem(user.id, params.pk, body.is_bought);
        },
      }),
  });

  ownerActionsApi(app, {
    tag: TAG,
    base: BASE,
    noun: 'shopping list',
    service: shopping,
    detail: (userId, listId) => detail(shopping, userId, listId),
    response: shoppingListDetailJson,
  });
}
