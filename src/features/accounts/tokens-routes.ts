import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { identityKeyProblem } from '../../platform/identity-key.js';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { parseForm } from '../../platform/forms.js';
import { msg } from '../../platform/i18n/index.js';
import { pathId } from '../../platform/ids.js';
import type { FormErrors, FormValues } from '../../platform/forms.js';
import { viewContext } from '../../platform/views/context.js';
import { MAX_TOKENS_PER_USER, TokensRepository } from './tokens-repository.js';
import { TokensPage } from './tokens-views.js';

const TOKENS_PATH = '/accounts/tokens/';

export const tokenForm = z.object({
  name: z
    .string({ error: msg('tokens.name_required') })
    .trim()
    .max(100, msg('tokens.name_too_long'))
    // Empty, or invisible characters alone (zero-width spaces): nothing to tell tokens apart by.
    .refine((name) => identityKeyProblem(name) !== 'empty', msg('tokens.name_required')),
  scope: z.enum(['read', 'write'], { error: msg('tokens.scope_invalid') }),
});

type PkParams = { Params: { pk: string } };

/** /accounts/tokens/: the caller's personal access tokens for the JSON API; another user's token is a 404. */
export async function tokensRoutes(app: FastifyInstance, { db }: { db: Kysely<Database> }): Promise<void> {
  const tokens = new TokensRepository(db);

  const showList = async (request: FastifyRequest, reply: FastifyReply, status = 200, form: { values?: FormValues; errors?: FormErrors } = {}) =>
    reply.render(TokensPage({ ctx: viewContext(request), tokens: await tokens.listForUser(request.user!.id), ...form }), status);

  app.get(TOKENS_PATH, (request, reply) => showList(request, reply));

  app.post('/accounts/tokens/new/', async (request, reply) => {
    const form = parseForm(tokenForm, request.body);
    if (!form.ok) return showList(request, reply, 400, form);
    const created = await tokens.create(request.user!.id, form.data);
    if (!created.ok) {
      const errors = { __all__: [{ key: msg('tokens.too_many'), values: { max: MAX_TOKENS_PER_USER } }] };
      return showList(request, reply, 400, { values: { name: form.data.name, scope: form.data.scope }, errors });
    }
    // Rendered, not redirected to: the token exists in the clear only in this answer (no-store).
    const ctx = viewContext(request);
    return reply.render(TokensPage({ ctx, tokens: await tokens.listForUser(request.user!.id), created: { token: created.token, name: created.row.name } }));
  });

  app.post<PkParams>('/accounts/tokens/:pk/delete/', async (request, reply) => {
    if (!(await tokens.revoke(request.user!.id, pathId(request)))) throw new NotFound();
    request.flash('tokens.revoked');
    return reply.redirect(TOKENS_PATH, 302);
  });
}
