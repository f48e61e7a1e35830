import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** public/ beside src/ and dist/, whichever this file was loaded from. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));

const versions = new Map<string, string>();

/**
 * `/static/<file>?v=<content hash>`: the URL changes when the file does, so the proxy can
 * serve static files with a long cache lifetime.
 */
export function assetUrl(file: string): string {
  let version = versions.get(file);
  if (version === undefined) {
    try {
      version = createHash('sha256').update(readFileSync(PUBLIC_DIR + file)).digest('hex').slice(0, 10);
    } catch {
      version = 'missing';
    }
    versions.set(file, version);
  }
  return `/static/${file}?v=${version}`;
}
