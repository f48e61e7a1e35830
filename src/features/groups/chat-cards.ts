import type { FastifyInstance } from 'fastify';
import { BadRequest, NotFound } from '../../errors.js';
import { parseId } from '../../platform/ids.js';
import { type MessageKey, type MessageValues, requestTranslator, translate } from '../../platform/i18n/index.js';
import type { LinkCards, LinkRef } from '../../platform/link-cards.js';
import type { GroupsRepository } from './repository.js';

/** A page of history holds 50 messages; one question covers their links (more ask again). */
export const MAX_CARD_REFS = 50;
const REF = /^([a-z]{1,20}):([0-9]{1,10})$/;

type Refusal = { key: MessageKey; values?: MessageValues };

/** `?ref=note:12&ref=todo:3`: the references, or why they are not such (a 400's message, a catalogue key). */
export function parseCardRefs(raw: unknown, cards: LinkCards): LinkRef[] | Refusal {
  const values = raw === undefined ? [] : [raw].flat();
  if (values.length === 0) return { key: 'chat.refs_none' };
  if (values.length > MAX_CARD_REFS) return { key: 'chat.refs_too_many', values: { max: MAX_CARD_REFS } };
  const refs: LinkRef[] = [];
  for (const value of values) {
    const match = typeof value === 'string' ? REF.exec(value) : null;
    const id = match ? parseId(match[2]) : null;
    if (!match || id === null || !cards.has(match[1]!)) return { key: 'chat.refs_invalid', values: { value: String(value).slice(0, 40) } };
    refs.push({ kind: match[1]!, id });
  }
  return refs;
}

/**
 * The cards a member sees for links in a group's chat: each object through its own feature's
 * visibility query for the caller, so a link to something the caller may not read is no card,
 * exactly as if it did not exist. Members only: everyone else gets the group's 404.
 */
export function chatCardRoutes(app: FastifyInstance, groups: GroupsRepository, cards: LinkCards): void {
  app.get('/groups/:pk/chat/cards/', async (request, reply) => {
    const groupId = parseId((request.params as { pk?: string }).pk);
    if (groupId === null || !(await groups.isMember(groupId, request.user!.id))) throw new NotFound();
    const refs = parseCardRefs((request.query as { ref?: unknown }).ref, cards);
    if (!Array.isArray(refs)) {
      const error = new BadRequest(refs.key);
      error.values = refs.values;
      throw error;
    }
    // A card's label, registered by the feature that owns the object, is shown in the reader's
    // language when it is a catalogue key (text is sent as it is).
    const t = requestTranslator(request);
    const found = (await cards.resolve(request.user!.id, refs)).map((card) => ({ ...card, label: translate(t, card.label) }));
    return reply.header('cache-control', 'no-store').send({ cards: found });
  });
}
