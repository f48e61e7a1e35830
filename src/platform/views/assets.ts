import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** public/ beside src/ and dist/, whichever this file was loaded from. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));

/**
 * The files the layout links on every page (layout.tsx). public/vendor/ is not in git but copied
 * from node_modules by `npm run build`, so a checkout can lack it; a feature's own scripts are in
 * git beside its pages.
 */
export const LINKED_ASSETS = ['favicon.svg', 'vendor/pico.min.css', 'app.css', 'js/app.js', 'js/confirm.js'] as const;

/** The linked files that are not in `publicDir`. */
export function missingAssets(publicDir = PUBLIC_DIR): string[] {
  return LINKED_ASSETS.filter((file) => !statSync(join(publicDir, file), { throwIfNoEntry: false })?.isFile());
}

/**
 * Refuses to start without a file every page links: the site would answer every request all the
 * same, unstyled or without its scripts, and nothing would say why (`npm run build`, which
 * `npm install` runs, makes public/vendor/).
 */
export function requireLinkedAssets(publicDir = PUBLIC_DIR): void {
  const missing = missingAssets(publicDir);
  if (missing.length === 0) return;
  const paths = missing.map((file) => join(publicDir, file)).join(', ');
  throw new Error(`missing ${paths}, which pages link (npm run build copies public/vendor/ from node_modules)`);
}

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
