import type { ChatMessagePayload } from '../../platform/hub/hub.js';
import { assetUrl } from '../../platform/views/assets.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { todayIn, timeZoneOr } from '../../platform/time-zones.js';
import { MAX_CHAT_LENGTH } from './forms.js';

/**
 * A message's time as chat.js writes it (public/js/chat.js formatTime), here in the account's zone
 * for readers without JavaScript: "10:10 PM" today, "Nov 24, 10:10 PM" before, the year added
 * when it is not this year's.
 */
export function chatTime(timeZone: string, iso: string, now = new Date()): string {
  const zone = timeZoneOr(timeZone);
  const date = new Date(iso);
  const day = todayIn(zone, date);
  const today = todayIn(zone, now);
  const options: Intl.DateTimeFormatOptions = { timeZone: zone, hour: 'numeric', minute: '2-digit' };
  if (day !== today) Object.assign(options, { month: 'short', day: 'numeric' }, day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' });
  return new Intl.DateTimeFormat('en-US', options).format(date);
}

function ChatMessage({ message, own, timeZone }: { message: ChatMessagePayload; own: boolean; timeZone: string }) {
  return (
    <li class={own ? 'chat-message own' : 'chat-message'} data-message-id={String(message.message_id)}>
      <header>
        <strong class="chat-author">{own ? 'You' : message.author}</strong>{' '}
        <time datetime={message.timestamp} data-zone={timeZone} title={message.timestamp}>{chatTime(timeZone, message.timestamp)}</time>
      </header>
      <p class="chat-content">{message.content}</p>
    </li>
  );
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
    <Layout ctx={ctx} title={`Chat · ${group.name}`}>
      <div class="page-header chat-page-header">
        <h1>Chat of {group.name}</h1>
        <a href={`/groups/${group.id}/`}>Group and members</a>
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
        aria-label="Conversation"
      >
        <p class="chat-status" id="chat-status" role="status" data-state="offline">
          Live chat needs JavaScript. The latest messages are shown below; reload the page to see new ones.
        </p>
        {/* The scroller is the live region: role="log" on the <ol> would hide its list items' list semantics. */}
        <div class="chat-scroll" id="chat-scroll" tabindex={0} role="log" aria-live="polite" aria-label={`Messages in ${group.name}`}>
          <p class="chat-older" id="chat-older" hidden>Loading older messages…</p>
          <ol class="chat-log" id="chat-log">
            {history.map((message) => <ChatMessage message={message} own={message.author === username} timeZone={ctx.user?.timezone ?? 'UTC'} />)}
          </ol>
          {history.length === 0 ? <p class="empty" id="chat-empty">No messages yet. Say hello!</p> : null}
        </div>
        <form class="chat-form" id="chat-form" hidden>
          <label for="chat-input">Message</label>
          <div class="chat-compose">
            <textarea id="chat-input" name="content" rows={2} maxLength={MAX_CHAT_LENGTH} required aria-describedby="chat-help chat-error" />
            <button type="submit" id="chat-send">Send</button>
          </div>
          <small id="chat-help">Enter sends; Shift+Enter starts a new line.</small>
          <p class="chat-error" id="chat-error" role="alert" />
        </form>
      </section>
      <script src={assetUrl('js/chat-links.js')} defer />
      <script src={assetUrl('js/chat.js')} defer />
    </Layout>
  );
}
