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
import { type TodoListDetailJson, todoItemBody, todoItemJson, todoItemOut, todoItemPatch, todoListBody, todoListDetailJson, todoListJson, todoListOut, todoListPatch } from './api-schemas.js';
import { TodoService } from './service.js';

const TAG = 'todo';
const BASE = '/api/v1/todo';

/** The JSON API of to-do lists: the pages' service and permissions (readers read, the owner changes). */
export function todoApi(app: FastifyInstance, deps: { db: Kysely<Database>; notifications: Notifications; live?: LiveListEvents }): void {
  const on = (db: Kysely<Database>, later?: AfterCommit) => new TodoService(db, deps.notifications, later ? (deps.live?.deferred(later, deps.db) ?? null) : deps.live);
  const todo = on(deps.db);
  const detail = async (service: TodoService, userId: number, listId: number): Promise<TodoListDetailJson> => {
    const page = await service.page(userId, listId);
    return { ...todoListOut(page.list, userId, page.sharedWith), items: page.items.map(todoItemOut) };
  };

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/`,
    tag: TAG,
    summary: 'Your to-do lists and those shared with you, most recently changed first (without their items).',
    query: z.object(pagingQuery),
    response: pageOf(todoListJson),
    handler: async ({ user, query, request }) => {
      const page = pageRows(await todo.listsAfter(user.id, listsAfter(query.cursor), query.limit + 1), query.limit, (row) => [row.updated_at, row.id]);
      return { results: page.rows.map((row) => todoListOut(row, user.id, row.sharedWith)), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: `${BASE}/`,
    tag: TAG,
    summary: 'Create a to-do list.',
    body: todoListBody,
    status: 201,
    response: todoListDetailJson,
    location: (list) => `${BASE}/${list.id}/`,
    errors: [403],
    handler: async ({ user, body }) => detail(todo, user.id, await todo.create(user.id, body)),
  });

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/:pk/`,
    tag: TAG,
    summary: 'A to-do list with its items.',
    params: pkParams,
    response: todoListDetailJson,
    errors: [404],
    handler: ({ user, params }) => detail(todo, user.id, params.pk),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${BASE}/:pk/`,
    tag: TAG,
    summary: 'Change the title or description of a to-do list (owner only); If-Match honoured.',
    params: pkParams,
    body: todoListPatch,
    response: todoListDetailJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(deps.db, request, {
        on,
        lock: (service) => service.lockOwned(user.id, params.pk),
        read: (service) => detail(service, user.id, params.pk),
        write: (service, current) => service.update(user.id, params.pk, { title: body.title ?? current.title, description: body.description ?? current.description }),
      }),
  });

  apiRoute(app, {
    method: 'POST',
    path: `${BASE}/:pk/items/`,
    tag: TAG,
    summary: 'Add an item to a to-do list (owner and tick users), optionally assigned to someone who may read it.',
    params: pkParams,
    body: todoItemBody,
    status: 201,
    response: todoItemJson,
    location: (item) => `${BASE}/items/${item.id}/`,
    errors: [403, 404],
    handler: async ({ user, params, body }) => {
      const added = await todo.addAssignedItem(user.id, params.pk, body);
      if (!added.ok) invalid(added.errors);
      return todoItemOut(await todo.item(user.id, added.value));
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: `${BASE}/items/:pk/`,
    tag: TAG,
    summary: 'An item of a to-do list.',
    params: pkParams,
    response: todoItemJson,
    errors: [404],
    handler: async ({ user, params }) => todoItemOut(await todo.item(user.id, params.pk)),
  });

  apiRoute(app, {
    method: 'PATCH',
    path: `${BASE}/items/:pk/`,
    tag: TAG,
    summary: 'Mark an item done or not done (owner and tick users); If-Match honoured.',
    params: pkParams,
    body: todoItemPatch,
    response: todoItemJson,
    errors: [403, 404, 412],
    handler: ({ user, params, body, request }) =>
      checkedChange(deps.db, request, {
        on,
        lock: (service) => service.lockTickableItem(user.id, params.pk),
        read: async (service) => todoItemOut(await service.item(user.id, params.pk)),
        write: async (service) => {
          await service.markItem(user.id, params.pk, body.is_done);
        },
      }),
  });

  ownerActionsApi(app, { tag: TAG, base: BASE, noun: 'to-do list', service: todo, detail: (userId, listId) => detail(todo, userId, listId), response: todoListDetailJson });
}
