import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Document = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; deprecated?: boolean }>> };

async function openApi(): Promise<Document> {
  const response = await new TestBrowser(t.app).get('/api/v1/openapi.json');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(response.body) as Document;
}

describe('the OpenAPI document', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const document = await openApi();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every API route with its success answer and its errors, and no route is left out of it', async () => {
    const document = await openApi();
    const operations = t.app.apiOperations;
    expect(operations.length).toBeGreaterThan(1);
    for (const operation of operations) {
      for (const path of [operation.path, ...(operation.aliases ?? [])]) {
        const entry = document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[operation.method.toLowerCase()];
        expect(entry, `${operation.method} ${path}`).toBeDefined();
        expect(Object.keys(entry!.responses)).toEqual(expect.arrayContaining([String(operation.status ?? 200), '400', '401', '429', ...(operation.errors ?? []).map(String)]));
        expect(entry!.deprecated ?? false).toBe(path !== operation.path);
        expect(t.app.hasRoute({ method: operation.method, url: path })).toBe(true);
      }
    }
    // Any /api/ route not declared through apiRoute would be missing from the document: only the document itself and its page are.
    expect(t.app.undocumentedApiRoutes.sort()).toEqual(['GET /api/v1/docs/', 'GET /api/v1/openapi.json']);
  });
});

describe('the reference page', () => {
  it('is served by the app itself, readable without signing in, and names every path', async () => {
    const response = await new TestBrowser(t.app).get('/api/v1/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(response.body).not.toMatch(/<script(?![^>]*src="\/static\/)/);
    for (const operation of t.app.apiOperations) expect(response.body).toContain(`<code>${operation.path}</code>`);
  });
});
