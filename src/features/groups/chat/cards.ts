import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { isOneOf } from '../../../db/id-lists.js';
import type { Database } from '../../../db/schema.js';
import { BadRequest, NotFound } from '../../../errors.js';
import { parseId } from '../../../platform/ids.js';
import { type MessageKey, type MessageValues, requestTranslator, translate } from '../../../platform/i18n/index.js';
import type { ObjectKinds } from '../../../platform/object-kinds.js';
import type { GroupsRepository } from '../repository.js';

// Links in the chat to things of this site (a note, a list) shown as cards. The chat does not know
// the kinds it links to: each is an ObjectKind, registered by its feature with its own visibility
// query. What the reader may not see is simply absent from the answer, as what does not exist.

/** A link target named by kind and id: `note:12`. */
export interface LinkRef {
  kind: string;
  id: number;
}

/** What a card shows of an object the viewer may see. */
export interface LinkCard {
  kind: string;
  /** The kind in words, in the reader's language: `Note`, `To-do list`. */
  label: string;
  id: number;
  title: string;
  /** The object's page: `/notes/12/`. */
  url: string;
}

/** Each kind's page prefix, for the chat's script to recognise links: `{ note: '/notes/' }`. */
export function linkPaths(kinds: ObjectKinds): Record<string, string> {
  return Object.fromEntries(kinds.all().map((kind) => [kind.kind, kind.path]));
}

/** The cards of these references that `userId` may see, one query per kind asked for; labels in `t`'s language. */
export async function resolveCards(db: Kysely<Database>, kinds: ObjectKinds, userId: number, refs: readonly LinkRef[], label: (key: MessageKey) => string): Promise<LinkCard[]> {
  const idsByKind = new Map<string, Set<number>>();
  for (const ref of refs) {
    if (!kinds.get(ref.kind)) continue;
    let ids = idsByKind.get(ref.kind);
    if (!ids) idsByKind.set(ref.kind, (ids = new Set()));
    ids.add(ref.id);
  }
  const found = await Promise.all(
    [...idsByKind].map(async ([name, ids]) => {
      const kind = kinds.get(name)!;
      const rows = await db
        .selectFrom(kind.visible(userId).as('seen'))
        .select(['seen.id', 'seen.title'])
        .where((eb) => isOneOf(db, eb.ref('seen.id'), [...ids]))
        .execute();
      return rows.map((row) => ({ kind: kind.kind, label: label(kind.noun), id: row.id, title: row.title, url: `${kind.path}${row.id}/` }));
    }),
  );
  return found.flat();
}

/** A page of history holds 50 messages; one question covers their links (more ask again). */
export const MAX_CARD_REFS = 50;
const REF = /^([a-z]{1,20}):([0-9]{1,10})$/;

type Refusal = { key: MessageKey; values?: MessageValues };

/** `?ref=note:12&ref=todo:3`: the references, or why they are not such (a 400's message, a catalogue key). */
export function parseCardRefs(raw: unknown, kinds: ObjectKinds): LinkRef[] | Refusal {
  const values = raw === undefined ? [] : [raw].flat();
  if (values.length === 0) return { key: 'chat.refs_none' };
  if (values.length > MAX_CARD_REFS) return { key: 'chat.refs_too_many', values: { max: MAX_CARD_REFS } };
  const refs: LinkRef[] = [];
  for (const value of values) {
    const match = typeof value === 'string' ? REF.exec(value) : null;
    const id = match ? parseId(match[2]) : null;
    if (!match || id === null || !kinds.get(match[1]!)) return { key: 'chat.refs_invalid', values: { value: String(value).slice(0, 40) } };
    refs.push({ kind: match[1]!, id });
  }
  return refs;
}

/**
 * The cards a member sees for links in a group's chat: each object through its own feature's
 * visibility query for the caller, so a link to something the caller may not read is no card,
 * exactly as if it did not exist. Members only: everyone else gets the group's 404.
 */
export function chatCardRoutes(app: FastifyInstance, db: Kysely<Database>, groups: GroupsRepository, kinds: ObjectKinds): void {
  app.get('/groups/:pk/chat/cards/', async (request, reply) => {
    const groupId = parseId((request.params as { pk?: string }).pk);
    if (groupId === null || !(await groups.isMember(groupId, request.user!.id))) throw new NotFound();
    const refs = parseCardRefs((request.query as { ref?: unknown }).ref, kinds);
    if (!Array.isArray(refs)) {
      const error = new BadRequest(refs.key);
      error.values = refs.values;
      throw error;
    }
    // A card's label, the kind's noun, is said in the reader's language.
    const t = requestTranslator(request);
    const found = await resolveCards(db, kinds, request.user!.id, refs, (key) => translate(t, key));
    return reply.header('cache-control', 'no-store').send({ cards: found });
  });
}
