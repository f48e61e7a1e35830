import type { ChatMessagePayload } from './events.js';
import { assetUrl } from '../../../platform/views/assets.js';
import { Layout } from '../../../platform/views/layout.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { dateTimeIn, localeOf, todayIn, timeZoneOr } from '../../../platform/time-zones.js';
import { MAX_CHAT_LENGTH } from './forms.js';
import { EDIT_WINDOW_MS } from './message-changes.js';
import { messagePath } from './message-views.js';
import { type MentionReader, MessageText } from './message-text.js';
import { identityKey } from '../../../platform/identity-key.js';

/**
 * A message's time as chat.js writes it (public/js/chat.js formatTime), here in the account's zone
 * and the page's language for readers without JavaScript: "22:10" today, "24 Nov, 22:10" before
 * ("24 лист., 22:10" in Ukrainian), the year added when it is not this year's.
 */
export function chatTime(timeZone: string, iso: string, language: string, now = new Date()): string {
  const zone = timeZoneOr(timeZone);
  const date = new Date(iso);
  const day = todayIn(zone, date);
  const today = todayIn(zone, now);
  const options: Intl.DateTimeFormatOptions = { timeZone: zone, hour: '2-digit', minute: '2-digit' };
  if (day !== today) Object.assign(options, { month: 'short', day: 'numeric' }, day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' });
  return new Intl.DateTimeFormat(localeOf(language), options).format(date);
}

/** What the reader may do to a message, as the server will judge it now: public/js/chat.js writes the same for live ones. */
interface MessageRights {
  edit: boolean;
  delete: boolean;
}

/** The small Edit and Delete links of a message (delete asks first: public/js/confirm.js). */
function MessageActions({ ctx, groupId, messageId, rights }: { ctx: ViewContext; groupId: number; messageId: number; rights: MessageRights }) {
  const message = { id: messageId, groupId };
  return (
    <span class="chat-actions">
      {rights.edit ? <a class="chat-edit" href={messagePath(message, 'edit')} aria-label={ctx.t('chat.edit_label')}>{ctx.t('chat.edit')}</a> : null}
      {rights.delete ? <a class="chat-delete" href={messagePath(message, 'delete')} aria-label={ctx.t('chat.delete_label')} data-confirm="">{ctx.t('chat.delete')}</a> : null}
    </span>
  );
}

function ChatMessage({ ctx, groupId, message, own, rights, timeZone, reader }: { ctx: ViewContext; groupId: number; message: ChatMessagePayload; own: boolean; rights: MessageRights; timeZone: string; reader: MentionReader }) {
  const classes = ['chat-message', own ? 'own' : '', message.deleted ? 'deleted' : ''].filter(Boolean).join(' ');
  return (
    <li class={classes} data-message-id={String(message.message_id)}>
      <header>
        <strong class="chat-author">{own ? ctx.t('chat.you') : message.author}</strong>{' '}
        <time datetime={message.timestamp} data-zone={timeZone} title={dateTimeIn(timeZone, Date.parse(message.timestamp), ctx.language)}>{chatTime(timeZone, message.timestamp, ctx.language)}</time>
        {message.edited_at && !message.deleted ? (
          <>
            {' '}
            <span class="chat-edited" data-edited-at={message.edited_at} title={dateTimeIn(timeZone, Date.parse(message.edited_at), ctx.language)}>{ctx.t('chat.edited')}</span>
          </>
        ) : null}
        {rights.edit || rights.delete ? <MessageActions ctx={ctx} groupId={groupId} messageId={message.message_id} rights={rights} /> : null}
      </header>
      {message.deleted ? <p class="chat-deleted">{ctx.t('chat.deleted')}</p> : <p class="chat-content"><MessageText content={message.content} reader={reader} /></p>}
    </li>
  );
}

/**
 * What `username` may do to the message now (message-changes.ts decides for real): its author
 * edits and deletes it within the window, the group's owner deletes it whenever.
 */
function rightsOver(message: ChatMessagePayload, username: string, isOwner: boolean, now: number): MessageRights {
  const inWindow = message.author === username && Date.parse(message.timestamp) > now - EDIT_WINDOW_MS;
  return { edit: !message.deleted && inWindow, delete: !message.deleted && (inWindow || isOwner) };
}

/**
 * The words public/js/chat.js, chat-links.js, chat-mentions.js and chat-changes.js show, in the page's language:
 * the scripts hold none. `{seconds}` and `{reason}` are filled in by the script.
 */
function chatWords(ctx: ViewContext): Record<string, string> {
  return {
    'data-word-you': ctx.t('chat.you'),
    'data-word-untitled': ctx.t('chat.untitled'),
    'data-word-card-only-you': ctx.t('chat.card_only_you'),
    'data-word-card-some': ctx.t('chat.card_some'),
    'data-word-connecting': ctx.t('chat.connecting'),
    'data-word-connected': ctx.t('chat.connected'),
    'data-word-reconnecting': ctx.t('chat.reconnecting', { seconds: '{seconds}' }),
    'data-word-ended': ctx.t('chat.ended'),
    'data-word-not-sent': ctx.t('chat.not_sent', { reason: '{reason}' }),
    'data-word-restored': ctx.t('chat.restored'),
    'data-word-not-connected': ctx.t('chat.not_connected'),
    'data-word-older-loading': ctx.t('chat.older_loading'),
    'data-word-older-start': ctx.t('chat.older_start'),
    'data-word-older-failed': ctx.t('chat.older_failed'),
    'data-word-mention-list': ctx.t('chat.mention_list'),
    'data-word-edited': ctx.t('chat.edited'),
    'data-word-deleted': ctx.t('chat.deleted'),
    'data-word-edit': ctx.t('chat.edit'),
    'data-word-delete': ctx.t('chat.delete'),
    'data-word-edit-label': ctx.t('chat.edit_label'),
    'data-word-delete-label': ctx.t('chat.delete_label'),
  };
}

interface ChatPageProps {
  ctx: ViewContext;
  group: { id: number; name: string; owner_id: number };
  history: ChatMessagePayload[];
  /** The group's members' usernames: their mentions are marked, and the box suggests them. */
  members: string[];
  /** The page prefix of each kind of link shown as a card (platform/link-cards.ts). */
  linkPaths: Record<string, string>;
}

/** Recent history is rendered on the server, so the page is useful without JavaScript too. */
export function ChatPage({ ctx, group, history, members, linkPaths }: ChatPageProps) {
  const username = ctx.user?.username ?? '';
  const reader: MentionReader = { memberKeys: new Set(members.map(identityKey)), ownKey: identityKey(username) };
  const isOwner = ctx.user?.id === group.owner_id;
  const now = Date.now();
  return (
    <Layout ctx={ctx} title={ctx.t('chat.title', { group: group.name })}>
      <div class="page-header chat-page-header">
        <h1>{ctx.t('chat.heading', { group: group.name })}</h1>
        <a href={`/groups/${group.id}/`}>{ctx.t('chat.group_link')}</a>
      </div>
      <section
        class="chat"
        id="chat"
        data-group-id={String(group.id)}
        data-username={username}
        data-socket-path={`/ws/groups/${group.id}/chat/`}
        data-messages-url={`/groups/${group.id}/chat/messages/`}
        data-cards-url={`/groups/${group.id}/chat/cards/`}
        data-link-paths={JSON.stringify(linkPaths)}
        data-members={JSON.stringify(members)}
        data-owner={isOwner ? 'true' : 'false'}
        data-edit-window-ms={String(EDIT_WINDOW_MS)}
        data-locale={localeOf(ctx.language)}
        {...chatWords(ctx)}
        aria-label={ctx.t('chat.conversation')}
      >
        <p class="chat-status" id="chat-status" role="status" data-state="offline">
          {ctx.t('chat.needs_javascript')}
        </p>
        {/* The scroller is the live region: role="log" on the <ol> would hide its list items' list semantics. */}
        <div class="chat-scroll" id="chat-scroll" tabindex={0} role="log" aria-live="polite" aria-label={ctx.t('chat.messages_in', { group: group.name })}>
          <p class="chat-older" id="chat-older" hidden>{ctx.t('chat.older_loading')}</p>
          <ol class="chat-log" id="chat-log">
            {history.map((message) => (
              <ChatMessage ctx={ctx} groupId={group.id} message={message} own={message.author === username} rights={rightsOver(message, username, isOwner, now)} timeZone={ctx.user?.timezone ?? 'UTC'} reader={reader} />
            ))}
          </ol>
          {history.length === 0 ? <p class="empty" id="chat-empty">{ctx.t('chat.empty')}</p> : null}
        </div>
        <form class="chat-form" id="chat-form" hidden>
          <label for="chat-input">{ctx.t('chat.message_label')}</label>
          <div class="chat-compose">
            <textarea id="chat-input" name="content" rows={2} maxLength={MAX_CHAT_LENGTH} required aria-describedby="chat-help chat-error" />
            <button type="submit" id="chat-send">{ctx.t('chat.send')}</button>
          </div>
          {/* Both hints, one shown by app.css as chat.js reads the device: on a touch screen Enter is a new line. */}
          <small id="chat-help">
            <span class="chat-help-keyboard">{ctx.t('chat.help')}</span>
            <span class="chat-help-touch">{ctx.t('chat.help_touch')}</span>
          </small>
          <p class="chat-error" id="chat-error" role="alert" />
        </form>
      </section>
      <script src={assetUrl('js/chat-links.js')} defer />
      <script src={assetUrl('js/chat-mentions.js')} defer />
      <script src={assetUrl('js/chat-changes.js')} defer />
      <script src={assetUrl('js/chat.js')} defer />
    </Layout>
  );
}
