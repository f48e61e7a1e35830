import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.js';

const TOKEN_A = 'a'.repeat(64);
const TOKEN_B = 'b'.repeat(64);

function cacheAt() {
  return new PageCache(32 * 1024 * 1024);
}

describe('PageCache', () => {
  it('serves a kept page again while its token is the same, with the CSRF token spliced in', () => {
    const cache = cacheAt();
    const html = `<form><input value="${cache.placeholder}"></form><form><input value="${cache.placeholder}"></form>`;
    const first = cache.put('key', '1', html, () => TOKEN_A);
    expect(first.bytes.toString()).toBe(`<form><input value="${TOKEN_A}"></form><form><input value="${TOKEN_A}"></form>`);
    const again = cache.get('key', '1', () => TOKEN_B);
    expect(again?.bytes.toString()).toBe(`<form><input value="${TOKEN_B}"></form><form><input value="${TOKEN_B}"></form>`);
  });

  it('drops a page once the database changed, even if it is asked for under the old token later', () => {
    const cache = cacheAt();
    cache.put('key', '1', '<p>old</p>', () => TOKEN_A);
    expect(cache.get('key', '1', () => TOKEN_A)?.bytes.toString()).toBe('<p>old</p>');
    expect(cache.get('key', '2', () => TOKEN_A)).toBeUndefined();
    expect(cache.get('key', '1', () => TOKEN_A)).toBeUndefined();
  });

  it('keeps pages apart by key', () => {
    const cache = cacheAt();
    cache.put('alice', '1', '<p>alice</p>', () => TOKEN_A);
    cache.put('bob', '1', '<p>bob</p>', () => TOKEN_A);
    expect(cache.get('alice', '1', () => TOKEN_A)?.bytes.toString()).toBe('<p>alice</p>');
    expect(cache.get('bob', '1', () => TOKEN_A)?.bytes.toString()).toBe('<p>bob</p>');
    expect(cache.get('carol', '1', () => TOKEN_A)).toBeUndefined();
  });

  it('keeps pages within its byte budget, the least recently used going first', () => {
    const cache = new PageCache(1000);
    const page = (i: number) => `<p>${String(i).padStart(3, '0')}${'x'.repeat(90)}</p>`; // 100 bytes
    for (let i = 0; i < 10; i += 1) cache.put(`page${i}`, '1', page(i), () => TOKEN_A);
    expect(cache.get('page0', '1', () => TOKEN_A)?.bytes.toString()).toBe(page(0)); // now the most recently used
    cache.put('page10', '1', page(10), () => TOKEN_A);
    expect(cache.get('page0', '1', () => TOKEN_A)).toBeDefined();
    expect(cache.get('page1', '1', () => TOKEN_A)).toBeUndefined();
    expect(cache.get('page2', '1', () => TOKEN_A)).toBeDefined();
    expect(cache.get('page10', '1', () => TOKEN_A)).toBeDefined();
  });

  it('counts a page put again under the same key once', () => {
    const cache = new PageCache(250);
    const page = `<p>${'x'.repeat(93)}</p>`;
    cache.put('a', '1', page, () => TOKEN_A);
    cache.put('b', '1', page, () => TOKEN_A);
    cache.put('b', '1', page, () => TOKEN_A);
    expect(cache.get('a', '1', () => TOKEN_A)).toBeDefined();
    expect(cache.get('b', '1', () => TOKEN_A)).toBeDefined();
  });

  it('sends a page over 256 KiB but does not keep it', () => {
    const cache = cacheAt();
    const big = `<p>${'x'.repeat(300 * 1024)}</p>`;
    expect(cache.put('big', '1', big, () => TOKEN_A).bytes.length).toBe(big.length);
    expect(cache.get('big', '1', () => TOKEN_A)).toBeUndefined();
  });

  it('refuses a CSRF token whose length differs from the placeholder (it would corrupt the page)', () => {
    const cache = cacheAt();
    expect(() => cache.put('key', '1', `<i>${cache.placeholder}</i>`, () => 'short')).toThrow(/as long as the placeholder/);
  });

  it('reuses a copy only once it was written out, with the new token in every place', () => {
    const cache = cacheAt();
    const html = `<a>${cache.placeholder}</a><b>${cache.placeholder}</b>`;
    const first = cache.put('key', '1', html, () => TOKEN_A);
    const second = cache.get('key', '1', () => TOKEN_B)!;
    expect(second.bytes).not.toBe(first.bytes); // the first is still being sent
    first.done();
    const third = cache.get('key', '1', () => TOKEN_B)!;
    expect(third.bytes).toBe(first.bytes);
    expect(third.bytes.toString()).toBe(`<a>${TOKEN_B}</a><b>${TOKEN_B}</b>`);
    expect(second.bytes.toString()).toBe(`<a>${TOKEN_B}</a><b>${TOKEN_B}</b>`);
  });

  it('lends a copy to one response at a time, even if it is handed back twice', () => {
    const cache = cacheAt();
    const first = cache.put('key', '1', `<a>${cache.placeholder}</a>`, () => TOKEN_A);
    first.done();
    first.done();
    const second = cache.get('key', '1', () => TOKEN_B)!;
    const third = cache.get('key', '1', () => TOKEN_A)!;
    expect(second.bytes).toBe(first.bytes);
    expect(third.bytes).not.toBe(second.bytes);
    expect(second.bytes.toString()).toBe(`<a>${TOKEN_B}</a>`);
  });

  it('does not take back copies of a page that was dropped (nor count them)', () => {
    const cache = new PageCache(250);
    const html = `<p>${'x'.repeat(29)}</p>${cache.placeholder}`; // 100 bytes
    const first = cache.put('key', '1', html, () => TOKEN_A);
    expect(cache.get('key', '2', () => TOKEN_A)).toBeUndefined(); // the database changed
    first.done();
    cache.put('a', '2', html, () => TOKEN_A);
    cache.put('b', '2', html, () => TOKEN_A);
    expect(cache.get('a', '2', () => TOKEN_A)).toBeDefined(); // 200 bytes kept: both fit
    expect(cache.get('key', '2', () => TOKEN_A)).toBeUndefined();
  });

  it('counts spare copies against the budget', () => {
    const cache = new PageCache(250);
    const html = `<p>${'x'.repeat(29)}</p>${cache.placeholder}`; // 100 bytes
    const a = cache.put('a', '1', html, () => TOKEN_A);
    const b = cache.put('b', '1', html, () => TOKEN_A);
    a.done(); // 300 bytes would be kept: not taken back
    b.done();
    expect(cache.get('a', '1', () => TOKEN_B)!.bytes).not.toBe(a.bytes);
    expect(cache.get('b', '1', () => TOKEN_B)!.bytes).not.toBe(b.bytes);
  });
});

describe('PageCache, a live part', () => {
  const live = (count: number) => ({ variant: String(count), render: () => `<nav>${count} unread</nav>` });

  it('serves a kept page with the live part of the request, keeping the rest', () => {
    const cache = cacheAt();
    const html = (count: number) => `<p>kept</p>${live(count).render()}<form>${cache.placeholder}</form>`;
    cache.put('key', '1', html(3), () => TOKEN_A, live(3));
    expect(cache.get('key', '1', () => TOKEN_B, live(3))?.bytes.toString()).toBe(`<p>kept</p><nav>3 unread</nav><form>${TOKEN_B}</form>`);
    expect(cache.get('key', '1', () => TOKEN_B, live(12))?.bytes.toString()).toBe(`<p>kept</p><nav>12 unread</nav><form>${TOKEN_B}</form>`);
    expect(cache.get('key', '1', () => TOKEN_A, live(0))?.bytes.toString()).toBe(`<p>kept</p><nav>0 unread</nav><form>${TOKEN_A}</form>`);
  });

  it('still drops the page when its token moves, whatever the live part', () => {
    const cache = cacheAt();
    cache.put('key', '1', `<p>old</p>${live(1).render()}`, () => TOKEN_A, live(1));
    expect(cache.get('key', '2', () => TOKEN_A, live(1))).toBeUndefined();
  });

  it('keeps a page whose live part is not found in it for that variant alone', () => {
    const cache = cacheAt();
    cache.put('key', '1', '<p>no navigation here</p>', () => TOKEN_A, live(1));
    expect(cache.get('key', '1', () => TOKEN_A, live(1))?.bytes.toString()).toBe('<p>no navigation here</p>');
    expect(cache.get('key', '1', () => TOKEN_A, live(2))).toBeUndefined();
  });

  it('does not take back a copy of the page as it was before its live part changed', () => {
    const cache = cacheAt();
    const html = `${live(1).render()}<i>${cache.placeholder}</i>`;
    const first = cache.put('key', '1', html, () => TOKEN_A, live(1));
    const second = cache.get('key', '1', () => TOKEN_B, live(2))!; // same length, other words
    first.done();
    const third = cache.get('key', '1', () => TOKEN_B, live(2))!;
    expect(third.bytes).not.toBe(first.bytes);
    expect(third.bytes.toString()).toBe(`<nav>2 unread</nav><i>${TOKEN_B}</i>`);
    second.done();
    expect(cache.get('key', '1', () => TOKEN_A, live(2))!.bytes).toBe(second.bytes);
  });
});

describe('PageCache, memory used again', () => {
  const sized = (cache: PageCache, name: string) => `<p>${name}${'x'.repeat(20_000)}</p><form>${cache.placeholder}</form>`;

  it('lends the memory of a page that dropped out to the next page kept', () => {
    const cache = cacheAt();
    const first = cache.put('old', '1', sized(cache, 'old'), () => TOKEN_A);
    first.done();
    expect(cache.get('old', '2', () => TOKEN_A)).toBeUndefined(); // the database changed: dropped
    const next = cache.put('new', '1', sized(cache, 'new'), () => TOKEN_B);
    expect(next.bytes.buffer).toBe(first.bytes.buffer);
    expect(next.bytes.toString()).toBe(sized(cache, 'new').replace(cache.placeholder, TOKEN_B));
  });

  it('never lends a copy still being written out, nor a page sent as it is, though its page dropped out', () => {
    const cache = new PageCache(100_000);
    const copy = cache.put('tokened', '1', sized(cache, 'tokened'), () => TOKEN_A); // not done: being written
    const plain = cache.put('plain', '1', `<p>${'y'.repeat(20_050)}</p>`, () => TOKEN_A);
    const [copySent, plainSent] = [copy.bytes.toString(), plain.bytes.toString()];
    for (let i = 0; i < 12; i += 1) {
      // Pages of the same size push the first two out of the budget and are sent and written out.
      cache.put(`other${i}`, '1', sized(cache, `other${i}`), () => TOKEN_B).done();
      cache.get(`other${i}`, '1', () => TOKEN_B)?.done();
    }
    expect(cache.has('tokened') || cache.has('plain')).toBe(false);
    expect(copy.bytes.toString()).toBe(copySent);
    expect(plain.bytes.toString()).toBe(plainSent);
  });
});
