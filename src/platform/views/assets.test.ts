import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, loggedIn } from '../../../test/index.js';
import { LINKED_ASSETS, missingAssets, PUBLIC_DIR, requireLinkedAssets } from './assets.js';

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A copy of public/ without `files`. */
function publicDirWithout(...files: string[]): string {
  scratch = mkdtempSync(join(tmpdir(), 'groupnotes-public-'));
  cpSync(PUBLIC_DIR, scratch, { recursive: true });
  for (const file of files) rmSync(join(scratch, file));
  return scratch;
}

describe('the files every page links', () => {
  it('are the layout’s: the stylesheets and its scripts, each of which a page links', async () => {
    expect(LINKED_ASSETS).toEqual(expect.arrayContaining(['vendor/pico.min.css', 'app.css', 'js/app.js']));
    const t = await buildTestApp();
    try {
      const { browser } = await loggedIn(t);
      const page = (await browser.get('/notes/')).body;
      for (const file of LINKED_ASSETS) expect(page).toContain(`/static/${file}?v=`);
    } finally {
      await t.close();
    }
  });

  it('are all in public/ as built', () => {
    expect(missingAssets()).toEqual([]);
    expect(() => requireLinkedAssets()).not.toThrow();
  });

  it('are reported missing by name', () => {
    const dir = publicDirWithout('vendor/pico.min.css', 'js/app.js');
    expect(missingAssets(dir)).toEqual(['vendor/pico.min.css', 'js/app.js']);
  });

  it('stop the start with one line naming the missing file and how to make it', () => {
    const dir = publicDirWithout('vendor/pico.min.css');
    expect(() => requireLinkedAssets(dir)).toThrow(
      new Error(`missing ${join(dir, 'vendor/pico.min.css')}, which pages link (npm run build copies public/vendor/ from node_modules)`),
    );
  });

  it('count a directory in a file’s place as missing', () => {
    const dir = publicDirWithout('app.css');
    cpSync(join(dir, 'js'), join(dir, 'app.css'), { recursive: true });
    expect(missingAssets(dir)).toEqual(['app.css']);
  });
});
