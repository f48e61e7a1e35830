import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Response as InjectResponse } from 'light-my-request';
import yauzl, { type Entry } from 'yauzl';
import { ZipFile } from 'yazl';
import type { TestBrowser } from './helpers.js';

// Zips made and read in memory for the export and import tests, and multipart uploads.

/** A zip of these files, in this order. */
export function makeZip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return collect(zip.outputStream as Readable);
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Every file of a zip, by name, as text. */
export async function unzip(buffer: Buffer): Promise<Map<string, string>> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
  const entries = await new Promise<Entry[]>((resolve, reject) => {
    const all: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      all.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(all));
    zip.once('error', reject);
    zip.readEntry();
  });
  const files = new Map<string, string>();
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    files.set(entry.fileName, (await collect(await zip.openReadStreamPromise(entry))).toString('utf8'));
  }
  return files;
}

/** `multipart/form-data` with fields in the order given; a Buffer value is sent as a file. */
export function multipartBody(fields: [string, string | Buffer][]): { body: Buffer; contentType: string } {
  const boundary = `----groupnotes${randomBytes(8).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const [name, value] of fields) {
    const head = Buffer.isBuffer(value)
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="notes.zip"\r\nContent-Type: application/zip\r\n\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`;
    pieces.push(Buffer.from(head), Buffer.from(value), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadOptions {
  /** Where the CSRF token goes: first field (as our form), after the file, the header, or nowhere. */
  token?: 'first' | 'last' | 'header' | 'none';
}

/** Posts a zip as the import form does, with the browser's cookies and Origin. */
export async function upload(app: FastifyInstance, browser: TestBrowser, url: string, zip: Buffer, { token = 'first' }: UploadOptions = {}): Promise<InjectResponse> {
  const secret = await browser.ensureCsrfCookie();
  const fields: [string, string | Buffer][] = [['file', zip]];
  if (token === 'first') fields.unshift(['csrfmiddlewaretoken', secret]);
  if (token === 'last') fields.push(['csrfmiddlewaretoken', secret]);
  const { body, contentType } = multipartBody(fields);
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { host: 'localhost', origin: 'http://localhost', cookie, 'content-type': contentType, ...(token === 'header' ? { 'x-csrftoken': secret } : {}) },
  });
  // Kept like a browser would (the flash message of the redirect).
  for (const { name, value, maxAge } of response.cookies as { name: string; value: string; maxAge?: number }[]) {
    if (maxAge === 0 || value === '') browser.cookies.delete(name);
    else browser.cookies.set(name, value);
  }
  return response;
}
