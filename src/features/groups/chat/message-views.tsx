import type { FormErrors, FormValues } from '../../../platform/forms.js';
import { ConfirmPage } from '../../../platform/views/confirm.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { CsrfField, FormAlert, TextArea } from '../../../platform/views/forms.js';
import { Layout } from '../../../platform/views/layout.js';
import { MAX_CHAT_LENGTH } from './forms.js';
import { EDIT_WINDOW_MS } from './message-changes.js';

/** A message of a group as its edit and delete pages show it. */
export interface ChangeableMessage {
  id: number;
  groupId: number;
  author: string;
  content: string;
}

export const chatPath = (groupId: number) => `/groups/${groupId}/chat/`;
export const messagePath = (message: { id: number; groupId: number }, change: 'edit' | 'delete') => `/groups/${message.groupId}/chat/messages/${message.id}/${change}/`;

/** The form that edits one's own message, for readers without JavaScript and for the chat's Edit link. */
export function EditMessagePage({ ctx, message, values = {}, errors = {} }: { ctx: ViewContext; message: ChangeableMessage; values?: FormValues; errors?: FormErrors }) {
  const heading = ctx.t('chat.edit_title');
  return (
    <Layout ctx={ctx} title={heading}>
      <article class="narrow">
        <h1>{heading}</h1>
        <form method="post" action={messagePath(message, 'edit')} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <TextArea name="content" label={ctx.t('chat.message_label')} value={values.content ?? message.content} errors={errors} rows={4} maxLength={MAX_CHAT_LENGTH} required
            help={ctx.t('chat.edit_help', { minutes: EDIT_WINDOW_MS / 60_000 })} />
          <div class="actions">
            <button type="submit">{ctx.t('chat.edit_save')}</button>
            <a href={chatPath(message.groupId)} role="button" class="secondary outline">{ctx.t('confirm.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

/** Asks before a message is deleted (public/js/confirm.js opens it as a dialog over the chat). */
export function DeleteMessagePage({ ctx, message }: { ctx: ViewContext; message: ChangeableMessage }) {
  const own = message.author === ctx.user?.username;
  return (
    <ConfirmPage ctx={ctx} title={ctx.t('chat.delete_title')} heading={ctx.t('chat.delete_heading')} action={messagePath(message, 'delete')}
      button={ctx.t('chat.delete')} cancel={chatPath(message.groupId)}>
      <blockquote class="chat-quote">
        <p class="chat-content">{message.content}</p>
        <footer>{own ? ctx.t('chat.you') : message.author}</footer>
      </blockquote>
      <p>{ctx.t('chat.delete_consequence')}</p>
    </ConfirmPage>
  );
}
