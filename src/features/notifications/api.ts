import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { cursorAfter, nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { MAX_ID } from '../../platform/ids.js';
import type { Notifier } from '../../services.js';
import { requestTranslator, translate, type Translator } from '../../platform/i18n/index.js';
import { type NotificationRow, NotificationsRepository } from './repository.js';
import { notificationMessage } from './texts.js';

const notificationJson = z.object({
  id: z.number().int(),
  kind: z.string().describe('What it is about: `reminder`, `group.added`, `list.shared`...'),
  text: z.string(),
  link: z.string().describe('A path on this site to what it is about, or empty.'),
  created_at: z.iso.datetime(),
  read: z.boolean(),
  read_at: z.iso.datetime().nullable(),
});

const listQuery = z.object({
  ...pagingQuery,
  unread: z.enum(['0', '1']).optional().describe('`1`: only the unread ones.'),
});
/** The list's cursor: the id of the last (oldest) notification of the page. */
const cursorShape = z.tuple([z.number().int().positive().max(MAX_ID)]);

/** A notification as JSON, its text in the caller's language where its kind allows (texts.ts). */
function toJson(row: NotificationRow, t: Translator): z.infer<typeof notificationJson> {
  const { id, kind, link } = row;
  return { id, kind, text: translate(t, notificationMessage(row)), link, created_at: new Date(row.created_at).toISOString(), read: row.read_at !== null, read_at: row.read_at === null ? null : new Date(row.read_at).toISOString() };
}

/**
 * /api/v1/notifications/: the caller's own, through the repository the page uses; another's id is
 * a 404. Marking read tells the caller's open pages their new count, as the page's buttons do.
 */
export function notificationsApi(app: FastifyInstance, { db, notifications }: { db: Kysely<Database>; notifications: Notifier }): void {
  const repository = new NotificationsRepository(db);

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notifications/',
    tag: 'notifications',
    summary: 'Your notifications, newest first.',
    query: listQuery,
    response: pageOf(notificationJson),
    handler: async ({ user, query, request }) => {
      const beforeId = cursorAfter(query.cursor, cursorShape)?.[0] ?? null;
      const rows = await repository.pageBefore(user.id, { beforeId, unreadOnly: query.unread === '1' }, query.limit + 1);
      const page = pageRows(rows, query.limit, (row) => [row.id]);
      return { results: page.rows.map((row) => toJson(row, requestTranslator(request))), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notifications/:pk/read/',
    tag: 'notifications',
    summary: 'Mark one notification read (one read already stays as it was).',
    params: pkParams,
    response: notificationJson,
    errors: [403, 404],
    handler: async ({ user, params, request }) => {
      if (!(await repository.markRead(user.id, params.pk))) throw new NotFound();
      notifications.announce([user.id]);
      const row = await repository.findOwned(user.id, params.pk);
      // Gone between the two statements: deleted with its user, so none such.
      if (!row) throw new NotFound();
      return toJson(row, requestTranslator(request));
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notifications/read/',
    tag: 'notifications',
    summary: 'Mark all your notifications read.',
    response: z.object({ marked: z.number().int().describe('How many were unread.') }),
    errors: [403],
    handler: async ({ user }) => {
      const marked = await repository.markAllRead(user.id);
      if (marked > 0) notifications.announce([user.id]);
      return { marked };
    },
  });
}
