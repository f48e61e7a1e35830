import { z } from 'zod';
import type { Notebook, Tag } from '../../db/schema.js';
import { isTimeZone } from '../../platform/time-zones.js';
import { parseWallTime } from '../../platform/wall-clock.js';
import { CONTENT_MAX, TITLE_MAX } from '../notes/index.js';
import { MESSAGE_MAX } from '../notes/index.js';
import { isCurrency } from '../accounts/index.js';
import { MAX_PRICE_CENTS, MAX_QUANTITY_MILLI } from '../lists/index.js';
import { NAME_MAX, STORE_MAX, UNIT_MAX } from '../lists/index.js';
import { DESCRIPTION_MAX, ITEM_TEXT_MAX } from '../lists/index.js';
import type { ExportRepository } from './export-repository.js';

// groupnotes.json: everything a user owns, enough to rebuild it losslessly in any account.
// Written piece by piece as pages are read; read back (import) through one schema.

export const DOCUMENT_FORMAT = 'groupnotes-user-export';
export const DOCUMENT_VERSION = 1;

const json = (value: unknown) => JSON.stringify(value);

/** The document's text, in chunks of about one page of rows each. */
export async function* exportDocument(repository: ExportRepository, owner: { id: number; username: string }, notebooks: Notebook[], tags: Tag[], now = Date.now()): AsyncGenerator<string> {
  const groups = await repository.referencedGroups(owner.id);
  yield `{"format":${json(DOCUMENT_FORMAT)},"version":${DOCUMENT_VERSION},"exported_at":${json(new Date(now).toISOString())},"username":${json(owner.username)},\n`;
  yield `"groups":${json(groups)},\n`;
  yield `"notebooks":${json(notebooks.map(({ id, title, description, color, created_at, updated_at }) => ({ id, title, description, color, created_at, updated_at })))},\n`;
  yield `"tags":${json(tags.map(({ id, name, color, created_at }) => ({ id, name, color, created_at })))},\n`;
  yield* jsonArray('notes', repository.notes(owner.id), (note) => note);
  yield ',\n';
  yield* jsonArray('todo_lists', repository.todoLists(owner.id), ({ id, title, description, group_id, group_permission, created_at, updated_at, items }) => ({
    id, title, description, group_id, group_permission, created_at, updated_at,
    items: items.map(({ text, due_date, is_done, position, created_at: at, done_at }) => ({ text, due_date, is_done, position, created_at: at, done_at })),
  }));
  yield ',\n';
  yield* jsonArray('shopping_lists', repository.shoppingLists(owner.id), ({ id, title, store_name, group_id, group_permission, currency, created_at, updated_at, items }) => ({
    id, title, store_name, group_id, group_permission, currency, created_at, updated_at,
    // The document keeps its words for a shopping item: bought, not done (the table says done).
    items: items.map(({ name, quantity_milli, unit, estimated_price_cents, is_done, created_at: at, done_at }) => ({ name, quantity_milli, unit, estimated_price_cents, is_bought: is_done, created_at: at, bought_at: done_at })),
  }));
  yield '}\n';
}

async function* jsonArray<T>(key: string, pages: AsyncGenerator<T[]>, shape: (row: T) => unknown): AsyncGenerator<string> {
  yield `${json(key)}:[`;
  let separator = '\n';
  for await (const page of pages) {
    let chunk = '';
    for (const row of page) {
      chunk += `${separator}${json(shape(row))}`;
      separator = ',\n';
    }
    yield chunk;
  }
  yield '\n]';
}

const id = z.number().int().positive();
const time = z.number().int().nonnegative().max(8.64e15);
const title = z.string().trim().min(1).max(TITLE_MAX);
const flag = z.union([z.literal(0), z.literal(1)]);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** A note's reminder as it was set: the wall time in its zone, from which the next one is worked out on import. */
const reminder = z.object({
  local_time: z.string().refine((value) => parseWallTime(value) !== null, 'not a date and time as YYYY-MM-DDTHH:MM'),
  time_zone: z.string().refine(isTimeZone, 'not a time zone this server knows'),
  repeat: z.enum(['none', 'daily', 'weekly', 'monthly']),
  message: z.string().trim().max(MESSAGE_MAX),
  next_due_at: time,
});

export const exportDocumentSchema = z.object({
  format: z.literal(DOCUMENT_FORMAT),
  version: z.literal(DOCUMENT_VERSION),
  groups: z.array(z.object({ id, name: z.string() })),
  notebooks: z.array(z.object({ id, title, description: z.string().max(DESCRIPTION_MAX), color, created_at: time, updated_at: time })),
  tags: z.array(z.object({ id, name: z.string().trim().min(1).max(50), color, created_at: time })),
  notes: z.array(
    z.object({
      id,
      title,
      content: z.string().max(CONTENT_MAX),
      notebook_id: id.nullable(),
      group_id: id.nullable(),
      tag_ids: z.array(id),
      priority: z.number().int().min(0).max(3),
      is_pinned: flag,
      is_archived: flag,
      created_at: time,
      updated_at: time,
      // Absent from exports made before reminders.
      reminders: z.array(reminder).default([]),
    }),
  ),
  todo_lists: z.array(
    z.object({
      id,
      title,
      description: z.string().max(DESCRIPTION_MAX),
      // Absent from exports made before migration 0030 (to-do lists had no group then).
      group_id: id.nullable().default(null),
      group_permission: z.enum(['read', 'tick']).default('read'),
      created_at: time,
      updated_at: time,
      items: z.array(
        z.object({
          text: z.string().trim().min(1).max(ITEM_TEXT_MAX),
          due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
          is_done: flag,
          position: z.number().int(),
          created_at: time,
          // Absent from exports made before migration 0017. Who ticked it is another account: not carried.
          done_at: time.nullable().default(null),
        }),
      ),
    }),
  ),
  shopping_lists: z.array(
    z.object({
      id,
      title,
      store_name: z.string().max(STORE_MAX),
      group_id: id.nullable(),
      // Absent from exports made before migration 0017.
      group_permission: z.enum(['read', 'tick']).default('read'),
      // Absent from exports made before migration 0027: the list takes the importing user's, as 0027 gave each list its owner's.
      currency: z.string().refine(isCurrency).optional(),
      created_at: time,
      updated_at: time,
      items: z.array(
        z.object({
          name: z.string().trim().min(1).max(NAME_MAX),
          quantity_milli: z.number().int().positive().max(MAX_QUANTITY_MILLI),
          unit: z.string().max(UNIT_MAX),
          estimated_price_cents: z.number().int().nonnegative().max(MAX_PRICE_CENTS).nullable(),
          is_bought: flag,
          created_at: time,
          // Absent from exports made before migration 0017. Who bought it is another account: not carried.
          bought_at: time.nullable().default(null),
        }),
      ),
    }),
  ),
});

export type ExportDocument = z.infer<typeof exportDocumentSchema>;
