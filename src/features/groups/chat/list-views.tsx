import { Layout } from '../../../platform/views/layout.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { dateTimeIn } from '../../../platform/time-zones.js';
import { UnreadCount } from '../views.js';
import { chatTime } from './views.js';

export interface ChatListEntry {
  id: number;
  name: string;
  unread: number;
  last_message_at: number | null;
}

/** The caller's group chats, the latest first, each with its unread messages (one group goes straight to its chat). */
export function ChatListPage({ ctx, chats }: { ctx: ViewContext; chats: ChatListEntry[] }) {
  const timeZone = ctx.user?.timezone ?? 'UTC';
  return (
    <Layout ctx={ctx} title={ctx.t('chat_list.title')}>
      <div class="page-header">
        <h1>{ctx.t('chat_list.heading')}</h1>
      </div>
      {chats.length === 0 ? (
        <p class="empty">
          {ctx.t('chat_list.empty')} <a href="/groups/new/">{ctx.t('chat_list.empty_create')}</a> {ctx.t('chat_list.empty_rest', { username: ctx.user?.username ?? '' })}
        </p>
      ) : (
        <ul class="plain-list chat-list">
          {chats.map((chat) => (
            <li>
              <a href={`/groups/${chat.id}/chat/`} class="chat-list-name">{chat.name}</a>
              <UnreadCount ctx={ctx} count={chat.unread} />
              <small class="muted chat-list-time">
                {chat.last_message_at === null ? (
                  ctx.t('chat_list.no_messages')
                ) : (
                  <>
                    {ctx.t('chat_list.last_message')}{' '}
                    <time datetime={new Date(chat.last_message_at).toISOString()} data-zone={timeZone} title={dateTimeIn(timeZone, chat.last_message_at, ctx.language)}>
                      {chatTime(timeZone, new Date(chat.last_message_at).toISOString(), ctx.language)}
                    </time>
                  </>
                )}
              </small>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
