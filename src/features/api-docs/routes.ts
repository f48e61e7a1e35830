import type { FastifyPluginAsync } from 'fastify';
import { openApiDocument } from '../../platform/api/openapi.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { ApiReferencePage } from './views.js';

/**
 * The API's own description: the OpenAPI 3.1 document, made from the operations registered by
 * every feature, and a reference page rendered from it here (no script from a CDN, so the CSP
 * stays as strict as everywhere else). Both public: they describe the API, they hold no data.
 */
export const apiDocsPages: FastifyPluginAsync<Services> = async (app, { config }) => {
  const document = () => openApiDocument(app.apiOperations, `${config.publicUrl}/`);
  app.get('/api/v1/openapi.json', { config: { public: true, sessionless: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(JSON.stringify(document())),
  );
  app.get('/api/v1/docs/', { config: { public: true } }, async (request, reply) => reply.render(ApiReferencePage({ ctx: viewContext(request), operations: app.apiOperations })));
};
