import type { FastifyInstance } from 'fastify';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { isOneOf } from '../../../db/id-lists.js';
import type { Database } from '../../../db/schema.js';
import { BadRequest, NotFound } from '../../../errors.js';
import { parseId } from '../../../platform/ids.js';
import { type MessageKey, type MessageValues, requestTranslator, translate } from '../../../platform/i18n/index.js';
import type { ObjectKind, ObjectKinds } from '../../../platform/object-kinds.js';
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
  /**
   * Which of the group's other members see this card too: `all` of them, `some`, or `none` (they
   * see a plain link). The chat tells the reader under a card that not everyone sees.
   */
  others: 'all' | 'some' | 'none';
}

/** Each kind's page prefix, for the chat's script to recognise links: `{ note: '/notes/' }`. */
export function linkPaths(kinds: ObjectKinds): Record<string, string> {
  return Object.fromEntries(kinds.all().map((kind) => [kind.kind, kind.path]));
}

/**
 * How many of a group's other members are asked whether they see a card's object: the cost of a
 * card is bounded by it, whatever the group's size. In a larger group the hint speaks of these.
 */
export const MAX_MEMBERS_ASKED = 500;

/**
 * The members of group `groupId` other than `userId` (the first MAX_MEMBERS_ASKED by id) who see
 * (`sees`) or do not see the object `id` of `kind`, each asked through the kind's own visibility
 * query: to be asked whether there is one.
 */
function otherMembers(db: Kysely<Database>, kind: ObjectKind, groupId: number, userId: number, id: Expression<number>, sees: boolean) {
  const asked = db
    .selectFrom('group_members')
    .select('group_members.user_id')
    .where('group_members.group_id', '=', groupId)
    .where('group_members.user_id', '<>', userId)
    .orderBy('group_members.user_id')
    .limit(MAX_MEMBERS_ASKED);
  return db
    .selectFrom(asked.as('other'))
    .select(sql.lit(1).as('one'))
    .where((eb) => {
      const theirs = eb.exists(db.selectFrom(kind.visible(eb.ref('other.user_id')).as('theirs')).select(sql.lit(1).as('one')).where('theirs.id', '=', id));
      return sees ? theirs : eb.not(theirs);
    });
}

/**
 * The cards of these references that `userId` may see, one query per kind asked for; labels in
 * `t`'s language. Each says which of group `groupId`'s other members see it too: every member
 * when it belongs to the group (the kind's `inGroup.shared`, asked first, for the common case of
 * a large group); else each member is asked (MAX_MEMBERS_ASKED at most), and the question stops
 * at the first who answers it.
 */
export async function resolveCards(db: Kysely<Database>, kinds: ObjectKinds, userId: number, groupId: number, refs: readonly LinkRef[], label: (key: MessageKey) => string): Promise<LinkCard[]> {
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
        .select((eb) => {
          const id = eb.ref('seen.id');
          const shared: Expression<SqlBool> = kind.inGroup ? eb.exists(db.selectFrom(kind.inGroup.shared(userId, sql.val(groupId)).as('shared')).select(sql.lit(1).as('one')).where('shared.id', '=', id)) : sql.lit(false);
          return [
            eb.case().when(shared).then(sql.lit(false)).else(eb.exists(otherMembers(db, kind, groupId, userId, id, false))).end().as('hidden_from_some'),
            eb.case().when(shared).then(sql.lit(true)).else(eb.exists(otherMembers(db, kind, groupId, userId, id, true))).end().as('seen_by_some'),
          ];
        })
        .where((eb) => isOneOf(db, eb.ref('seen.id'), [...ids]))
        .execute();
      return rows.map((row): LinkCard => {
        // SQLite answers 1 and 0, PostgreSQL true and false.
        const others = Number(row.hidden_from_some) !== 1 ? 'all' : Number(row.seen_by_some) === 1 ? 'some' : 'none';
        return { kind: kind.kind, label: label(kind.noun), id: row.id, title: row.title, url: `${kind.path}${row.id}/`, others };
      });
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
 * exactly as if it did not exist. Each card says whether the group's other members see it too
 * (`others`), which tells the caller nothing that the object's own "who can see this" panel
 * does not (every reader of a note or list sees it). Members only:
 * everyone else gets the group's 404.
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
    const found = await resolveCards(db, kinds, request.user!.id, groupId, refs, (key) => translate(t, key));
    return reply.header('cache-control', 'no-store').send({ cards: found });
  });
}
