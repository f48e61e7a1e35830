import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { Message } from '../i18n/index.js';

// One-time flash messages ("Logged out", "Note saved"), carried across the redirect in a
// signed cookie so that they need no session (and survive logout, which ends the session).

export type MessageLevel = 'success' | 'info' | 'warning' | 'error';
export interface FlashMessage {
  level: MessageLevel;
  /** A catalogue key with its values, put in the language of the page that shows it. */
  text: Message;
}

interface MessageState {
  incoming: FlashMessage[];
  outgoing: FlashMessage[];
  shown: boolean;
}

const COOKIE = 'messages';
const LEVELS = new Set<string>(['success', 'info', 'warning', 'error']);
const NO_MESSAGES: readonly FlashMessage[] = Object.freeze([]);

declare module 'fastify' {
  interface FastifyRequest {
    messageState: MessageState | null;
    /** Queues a message for the next page shown to this browser. */
    flash(text: Message, level?: MessageLevel): void;
    /** The messages to show on this page; they are then gone. */
    takeMessages(): readonly FlashMessage[];
  }
}

function isMessage(text: unknown): text is Message {
  if (typeof text === 'string') return true;
  if (!text || typeof text !== 'object') return false;
  const { key, values } = text as { key?: unknown; values?: unknown };
  return typeof key === 'string' && (values === undefined || (typeof values === 'object' && values !== null && Object.values(values).every((v) => typeof v === 'string' || typeof v === 'number')));
}

function parse(raw: string): FlashMessage[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter((m): m is FlashMessage => isMessage(m?.text) && LEVELS.has(m?.level)).slice(0, 10);
  } catch {
    return [];
  }
}

/** Read on first use, so that error pages rendered by an earlier layer can show messages too. */
function state(request: FastifyRequest): MessageState {
  if (!request.messageState) {
    const raw = request.cookies[COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    const incoming = unsigned?.valid && unsigned.value ? parse(unsigned.value) : [];
    request.messageState = { incoming, outgoing: [], shown: false };
  }
  return request.messageState;
}

/** Layer 6: one-time messages, written to (or cleared from) the cookie on the way out. */
export const messagesLayer = fp<{ config: Config }>(async (app, { config }) => {
  app.decorateRequest('messageState', null);
  app.decorateRequest('flash', function (this: FastifyRequest, text: Message, level: MessageLevel = 'success') {
    state(this).outgoing.push({ level, text });
  });
  app.decorateRequest('takeMessages', function (this: FastifyRequest) {
    // Most pages have none to show: no state to keep, nothing to write on the way out.
    if (!this.messageState && this.cookies[COOKIE] === undefined) return NO_MESSAGES;
    const current = state(this);
    const messages = [...current.incoming, ...current.outgoing];
    current.shown = true;
    current.outgoing = [];
    return messages;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const current = request.messageState;
    if (!current) return done(null, payload);
    const options = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.production };
    if (current.outgoing.length > 0) {
      const pending = current.shown ? current.outgoing : [...current.incoming, ...current.outgoing];
      reply.setCookie(COOKIE, JSON.stringify(pending), { ...options, signed: true });
    } else if (current.shown && current.incoming.length > 0) {
      reply.clearCookie(COOKIE, options);
    }
    done(null, payload);
  });
}, { name: 'messages-layer' });
