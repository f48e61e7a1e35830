import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { identityKeyProblem } from '../../platform/identity-key.js';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { parseForm } from '../../platform/forms.js';
import { msg, requestTranslator } from '../../platform/i18n/index.js';
import { pathId } from '../../platform/ids.js';
import type { FormErrors, FormValues } from '../../platform/forms.js';
import { viewContext } from '../../platform/views/context.js';
import { MAX_TOKENS_PER_USER, TokensRepository } from './tokens-repository.js';
import { RevokeTokenPage, TokensPage } from './tokens-views.js';
import type { AccountNotices } from './notices.js';
import { type Reauthentication, reauthFields } from './reauthentication.js';

const TOKENS_PATH = '/accounts/tokens/';

export const tokenForm = z.object({
  name: z
    .string({ error: msg('tokens.name_required') })
    .trim()
    .max(100, msg('tokens.name_too_long'))
    // Empty, or invisible characters alone (zero-width spaces): nothing to tell tokens apart by.
    .refine((name) => identityKeyProblem(name) !== 'empty', msg('tokens.name_required')),
  scope: z.enum(['read', 'write'], { error: msg('tokens.scope_invalid') }),
  /** A token can do what its owner can: making one takes the password (reauthentication.ts). */
  ...reauthFields,
});

type PkParams = { Params: { pk: string } };

/** /accounts/tokens/: the caller's personal access tokens for the JSON API; another user's token is a 404. */
export async function tokensRoutes(app: FastifyInstance, { db, reauthentication, notices }: { db: Kysely<Database>; reauthentication: Reauthentication; notices: AccountNotices }): Promise<void> {
  const tokens = new TokensRepository(db);

  const showList = async (request: FastifyRequest, reply: FastifyReply, status = 200, form: { values?: FormValues; errors?: FormErrors; created?: { token: string; name: string } } = {}) => {
    const userId = request.user!.id;
    const withCode = await reauthentication.asksForCode(userId);
    return reply.render(TokensPage({ ctx: viewContext(request), tokens: await tokens.listForUser(userId), withCode, ...form }), status);
  };

  app.get(TOKENS_PATH, (request, reply) => showList(request, reply));

  app.post('/accounts/tokens/new/', async (request, reply) => {
    const form = parseForm(tokenForm, request.body);
    if (!form.ok) return showList(request, reply, 400, form);
    const { password, code, ...fields } = form.data;
    const values = { name: fields.name, scope: fields.scope };
    const confirmed = await reauthentication.confirm(request, reply, { password, code });
    if (!confirmed.ok) return showList(request, reply, confirmed.status, { values, errors: confirmed.errors });
    const t = requestTranslator(request);
    const scope = t.t(fields.scope === 'write' ? 'tokens.scope_write' : 'tokens.scope_read');
    // The owner is told in the transaction that makes the token: both or neither.
    const created = await tokens.create(request.user!.id, fields, {
      sessionKey: request.session!.key,
      alongside: (trx) => notices.queueIn(trx, { kind: 'token_created', to: confirmed.user, values: { name: fields.name, scope }, t }),
    });
    // The session ended while the password was being checked: like every request of an ended session.
    if (!created.ok && created.reason === 'signed-out') return reply.redirect('/accounts/login/', 302);
    if (!created.ok && created.reason === 'name-taken') return showList(request, reply, 400, { values, errors: { name: [{ key: msg('tokens.name_taken'), values: { name: fields.name } }] } });
    if (!created.ok) {
      const errors = { __all__: [{ key: msg('tokens.too_many'), values: { max: MAX_TOKENS_PER_USER } }] };
      return showList(request, reply, 400, { values, errors });
    }
    notices.sent();
    // Rendered, not redirected to: the token exists in the clear only in this answer (no-store). A
    // reload sends the form again, which the name makes no second token of; with scripts on, the
    // page's address becomes the list's (app.js, data-page-url), and a reload is a GET of it.
    return showList(request, reply, 200, { created: { token: created.token, name: created.row.name } });
  });

  // The form's address, opened with a GET (its error page's address, entered again): the list.
  app.get('/accounts/tokens/new/', (_request, reply) => reply.redirect(TOKENS_PATH, 302));

  /** The confirmation of a revocation, like every other change that cannot be undone; another user's token is a 404. */
  app.get<PkParams>('/accounts/tokens/:pk/delete/', async (request, reply) => {
    const token = await tokens.findForUser(request.user!.id, pathId(request));
    if (!token) throw new NotFound();
    return reply.render(RevokeTokenPage({ ctx: viewContext(request), token }));
  });

  app.post<PkParams>('/accounts/tokens/:pk/delete/', async (request, reply) => {
    if (!(await tokens.revoke(request.user!.id, pathId(request)))) throw new NotFound();
    request.flash('tokens.revoked');
    return reply.redirect(TOKENS_PATH, 302);
  });
}
