import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../platform/api/errors.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { cursorAfter } from '../../platform/api/paging.js';
import { MAX_ID } from '../../platform/ids.js';
import type { FormErrors } from '../../platform/forms.js';
import { type ShareOutcome, type SharedUser, permissionField, shareForm } from './sharing.js';

// What the to-do and shopping APIs have in common: the share, the owner's deletes, paging of
// lists, and the If-Match read-check-write. Each kind's api.ts adds its own fields.


export const timestamp = z.string().describe('ISO 8601, UTC.');

export const isoTime = (milliseconds: number) => new Date(milliseconds).toISOString();

/** What a share (or a shopping list's group) allows: the form's field, with its message. */
export const permission = permissionField.describe('`read`: may read the list; `tick`: may also tick and add items (never rename, delete or re-share it).');

export const shareJson = z.object({ username: z.string(), permission });

export const sharesJson = z.array(shareJson).nullable().describe('Who the list is shared with: shown to its owner only, null for anyone else.');

/** Who a list is shared with, for its owner only, as the page shows it. */
export function sharesOf(list: { owner_id: number }, userId: number, sharedWith: SharedUser[]) {
  return list.owner_id === userId ? sharedWith.map((user) => ({ username: user.username, permission: user.permission })) : null;
}

export const shareBody = z
  .object({
    username: shareForm.shape.username,
    action: shareForm.shape.action,
    permission: permission.optional().describe('For `add`: `read` (the default) or `tick`; adding an existing user changes their permission.'),
  })
  .strict();

/** A form's errors (from a service) as the API's 400, with the same messages per field. */
export function invalid(errors: FormErrors): never {
  throw new ApiError(400, 'invalid', 'lists.invalid_body', errors);
}

// Lists are paged by the index's order, most recently changed first: [updated_at, id] is unique.
const listCursor = z.tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.number().int().min(1).max(MAX_ID)]);

/** Where a page of lists starts: after the list a cursor names, or at the first. */
export function listsAfter(cursor: string | undefined): [number, number] | null {
  return cursorAfter(cursor, listCursor);
}

/** The owner's changes both kinds of list have, with the same signatures (OwnedListService). */
interface OwnerActions {
  delete(userId: number, listId: number): Promise<void>;
  share(userId: number, listId: number, body: unknown, sharedBy?: string): Promise<ShareOutcome>;
  deleteItem(userId: number, itemId: number): Promise<number>;
}

/** `DELETE <base>/:pk/`, `POST <base>/:pk/share/` and `DELETE <base>/items/:pk/`, the same for both kinds. */
export function ownerActionsApi<Detail>(
  app: FastifyInstance,
  kind: { tag: string; base: string; noun: string; service: OwnerActions; detail: (userId: number, listId: number) => Promise<Detail>; response: z.ZodType<Detail> },
): void {
  const { tag, base, noun, service } = kind;
  apiRoute(app, {
    method: 'DELETE',
    path: `${base}/:pk/`,
    tag,
    summary: `Delete a ${noun} with its items and shares (owner only).`,
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => service.delete(user.id, params.pk),
  });
  apiRoute(app, {
    method: 'POST',
    path: `${base}/:pk/share/`,
    tag,
    summary: `Share a ${noun} with a user, or stop sharing it (owner only); answers the list.`,
    params: pkParams,
    body: shareBody,
    response: kind.response,
    errors: [403, 404],
    handler: async ({ user, params, body }) => {
      const outcome = await service.share(user.id, params.pk, { username: body.username, action: body.action, permission: body.permission ?? 'read' }, user.username);
      if (!outcome.ok) invalid(outcome.errors);
      return kind.detail(user.id, params.pk);
    },
  });
  apiRoute(app, {
    method: 'DELETE',
    path: `${base}/items/:pk/`,
    tag,
    summary: `Delete an item of a ${noun} (owner only).`,
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      await service.deleteItem(user.id, params.pk);
    },
  });
}
