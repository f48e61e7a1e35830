import { z } from 'zod';
import { STATUS_TITLES } from '../../errors.js';
import { translator } from '../i18n/index.js';
import type { ApiOperation } from './routes.js';

// The OpenAPI 3.1 document, made from the operations' own zod schemas (JSON Schema 2020-12 is
// OpenAPI 3.1's schema language) each time it is asked for: nothing is kept by hand.

type JsonSchema = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', examples: ['not_found'] },
        message: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Messages per invalid field (400 only).' },
      },
    },
  },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  // The document says its dialect once (OpenAPI 3.1 is 2020-12), not in every schema.
  delete generated.$schema;
  return generated;
}

/** `/api/v1/notes/:pk/` -> `/api/v1/notes/{pk}/`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function parameters(operation: ApiOperation): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [['path', operation.params], ['query', operation.query]] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      list.push({ name, in: where, required: where === 'path' || (object.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  return list;
}

function responses(operation: ApiOperation): Record<string, JsonSchema> {
  const status = operation.status ?? 200;
  const answers: Record<string, JsonSchema> = {};
  if (status === 204) answers['204'] = { description: 'Done; no body.' };
  else {
    const headers: JsonSchema = { ETag: { description: 'The version of what was sent.', schema: { type: 'string' } } };
    if (status === 201) headers.Location = { description: 'The URL of the new object.', schema: { type: 'string' } };
    answers[String(status)] = {
      description: status === 201 ? 'Created.' : 'OK.',
      headers,
      content: { 'application/json': { schema: operation.response ? jsonSchema(operation.response, 'output') : {} } },
    };
  }
  if (operation.method === 'GET') answers['304'] = { description: 'Not modified: `If-None-Match` names the current ETag.' };
  for (const code of [400, 401, ...(operation.errors ?? []), 429]) {
    answers[String(code)] ??= { description: translator('en').t(STATUS_TITLES[code] ?? 'error.title'), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return answers;
}

export function openApiDocument(operations: readonly ApiOperation[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operations) {
    for (const path of [operation.path, ...(operation.aliases ?? [])]) {
      const method = operation.method.toLowerCase();
      const entry: JsonSchema = {
        tags: [operation.tag],
        summary: operation.summary,
        operationId: `${method}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        parameters: parameters(operation),
        responses: responses(operation),
      };
      if (path !== operation.path) entry.deprecated = true;
      if (operation.body) entry.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } } };
      (paths[openApiPath(path)] ??= {})[method] = entry;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'groupnotes API',
      version: '1',
      description:
        'Notes, notebooks, tags, lists, groups, chat, reminders and notifications, with the same permissions as the pages. ' +
        'Authenticate with `Authorization: Bearer gnp_...` (a personal access token from /accounts/tokens/) or the session cookie (writes then need `X-CSRFToken`).',
    },
    servers: [{ url: serverUrl }],
    security: [{ token: [] }, { session: [] }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: 'A personal access token, `gnp_` and 40 letters and digits.' },
        session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
      },
    },
  };
}
