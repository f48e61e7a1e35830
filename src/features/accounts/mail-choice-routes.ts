import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkboxField, parseForm } from '../../platform/forms.js';
import { viewContext } from '../../platform/views/context.js';
import { MAIL_CHOICE_PATH, MailChoicePage } from './mail-choice-views.js';
import type { UsersRepository } from './repository.js';

// /accounts/notifications/: whether the notices that may go by mail (a to-do item assigned to
// the user, falling due, overdue) are mailed too. Off until the user turns it on: mail needs an
// address. A form of its own, so the account page's form asks for nothing more.

export const mailChoiceForm = z.object({ mail: checkboxField() });

export function mailChoiceRoutes(app: FastifyInstance, users: UsersRepository): void {
  app.get(MAIL_CHOICE_PATH, async (request, reply) => {
    const mail = await users.mailsNotifications(request.user!.id);
    return reply.render(MailChoicePage({ ctx: viewContext(request), mail }));
  });

  // An unticked box sends nothing: no field is "off".
  app.post(MAIL_CHOICE_PATH, async (request, reply) => {
    const form = parseForm(mailChoiceForm, request.body ?? {});
    await users.setMailNotifications(request.user!.id, form.ok && form.data.mail);
    request.flash('mail_choice.saved');
    return reply.redirect(MAIL_CHOICE_PATH, 302);
  });
}
