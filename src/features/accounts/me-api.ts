import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiRoute } from '../../platform/api/routes.js';

const me = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  timezone: z.string().describe('IANA time zone of the user.'),
  is_admin: z.boolean(),
  token_scope: z.enum(['read', 'write']).nullable().describe('The scope of the token used, or null for the session cookie.'),
});

/** `GET /api/v1/me/`: who the credentials stand for; what a script checks first. */
export function meApi(app: FastifyInstance): void {
  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/me/',
    tag: 'account',
    summary: 'The user the token or session stands for.',
    response: me,
    handler: async ({ user, request }) => ({
      id: user.id,
      username: user.username,
      email: user.email,
      timezone: user.timezone,
      is_admin: user.isAdmin,
      token_scope: request.apiToken?.scope ?? null,
    }),
  });
}
