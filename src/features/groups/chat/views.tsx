import type { ChatMessagePayload } from './events.js';
import { assetUrl } from '../../../platform/views/assets.js';
import { Layout } from '../../../platform/views/layout.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { dateTimeIn, localeOf, todayIn, timeZoneOr } from '../../../platform/time-zones.js';
import { MAX_CHAT_LENGTH } from './forms.js';

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

function ChatMessage({ ctx, message, own, timeZone }: { ctx: ViewContext; message: ChatMessagePayload; own: boolean; timeZone: string }) {
  return (
    <li class={own ? 'chat-message own' : 'chat-message'} data-message-id={String(message.message_id)}>
      <header>
        <strong class="chat-author">{own ? ctx.t('chat.you') : message.author}</strong>{' '}
        <time datetime={message.timestamp} data-zone={timeZone} title={dateTimeIn(timeZone, Date.parse(message.timestamp), ctx.language)}>{chatTime(timeZone, message.timestamp, ctx.language)}</time>
      </header>
      <p class="chat-content">{message.content}</p>
    </li>
  );
}

/**
 * The words public/js/chat.js and chat-links.js show, in the page's language: the scripts hold
 * none. `{seconds}` and `{reason}` are filled in by the script.
 */
function chatWords(ctx: ViewContext): Record<string, string> {
  return {
    'data-word-you': ctx.t('chat.you'),
    'data-word-untitled': ctx.t('chat.untitled'),
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
  };
}

interface ChatPageProps {
  ctx: ViewContext;
  group: { id: number; name: string };
  history: ChatMessagePayload[];
  /** The page prefix of each kind of link shown as a card (platform/link-cards.ts). */
  linkPaths: Record<string, string>;
}

/** Recent history is rendered on the server, so the page is useful without JavaScript too. */
export function ChatPage({ ctx, group, history, linkPaths }: ChatPageProps) {
  const username = ctx.user?.username ?? '';
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
            {history.map((message) => <ChatMessage ctx={ctx} message={message} own={message.author === username} timeZone={ctx.user?.timezone ?? 'UTC'} />)}
          </ol>
          {history.length === 0 ? <p class="empty" id="chat-empty">{ctx.t('chat.empty')}</p> : null}
        </div>
        <form class="chat-form" id="chat-form" hidden>
          <label for="chat-input">{ctx.t('chat.message_label')}</label>
          <div class="chat-compose">
            <textarea id="chat-input" name="content" rows={2} maxLength={MAX_CHAT_LENGTH} required aria-describedby="chat-help chat-error" />
            <button type="submit" id="chat-send">{ctx.t('chat.send')}</button>
          </div>
          <small id="chat-help">{ctx.t('chat.help')}</small>
          <p class="chat-error" id="chat-error" role="alert" />
        </form>
      </section>
      <script src={assetUrl('js/chat-links.js')} defer />
      <script src={assetUrl('js/chat.js')} defer />
    </Layout>
  );
}
