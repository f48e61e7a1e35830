import { randomBytes } from 'node:crypto';
import { BufferPool } from './buffer-pool.js';
import { type ViewerSlot, viewerSlotsOf, writeViewerSlots } from './for-viewer.js';

/** A page as bytes, with where the CSRF token goes in each copy sent. */
interface CachedPage {
  key: string;
  token: string;
  bytes: Buffer;
  csrfOffsets: number[];
  /** Where the viewer's marks go (for-viewer.tsx): a page may be kept once for many viewers. */
  viewerSlots: ViewerSlot[];
  /** The live part's variant the bytes show. */
  variant: string;
  /** The bytes around the live part, when it was found in the page: it can then be replaced. */
  around?: { before: Buffer; after: Buffer };
  /** Copies already sent and written out: only their tokens differ from `bytes`. */
  spares: Buffer[];
  /** Served since the eviction last came round to it: it gets a second chance (see keep). */
  usedSince: boolean;
}

/**
 * A part of a page that shows what no token follows (the navigation's counts): a kept page is
 * served with the part of the request's `variant`, rendered anew (the rest of the page kept)
 * when the variant is not the one the page shows.
 */
export interface LivePart {
  variant: string;
  /** The part as it is in the page, rendered with the placeholder for the CSRF token. */
  render(): string;
}

/** A copy of a page to send. */
export interface PageCopy {
  bytes: Buffer;
  /** Once the response is written out (its 'finish'): the copy may be sent again. */
  done(): void;
}

const MAX_PAGE_BYTES = 256 * 1024;
/** Copies kept per page for reuse: about as many as are being written out at one time. */
const MAX_SPARES = 4;
const nothingToDo = () => undefined;

/**
 * Rendered pages kept in this process. A page is served again only while its token is what it
 * was when the page's data was read: the caller's view token, read with the session *before* the
 * page's queries, which database triggers move whenever something the page shows changes, in the
 * transaction of the change, whoever makes it (any worker, instance, the CLI). A change by one
 * user therefore drops the pages of that user and of their groups' members at their next use, and
 * no others; a kept page is never older than the database, and no feature has invalidation code.
 *
 * What a page shows besides the database is either in the key (the user, the path, the query)
 * or spliced into each copy (the CSRF token, masked anew per response as Django does). Pages
 * showing flash messages are never kept. Least recently used pages go first (nearly: see keep)
 * when the kept bytes would pass the budget.
 */
export class PageCache {
  /** Stands in for the CSRF token while a page is rendered: as long as a masked token, unguessable. */
  readonly placeholder = randomBytes(32).toString('hex');
  private readonly placeholderBytes = Buffer.from(this.placeholder, 'latin1');
  /** Opens the slots of viewers' marks while a page is rendered (for-viewer.tsx): never sent, as unguessable. */
  readonly viewerMarker = randomBytes(16).toString('hex');
  private readonly pages = new Map<string, CachedPage>();
  private keptBytes = 0;
  /** Where every page's bytes and copies come from and go back to (a quarter of the budget waits there at most). */
  private readonly pool: BufferPool;

  constructor(
    /** PAGE_CACHE_MB, per process. */
    private readonly budgetBytes: number,
  ) {
    this.pool = new BufferPool(budgetBytes / 4);
  }

  /** Whether a page is kept for `key`, under whatever token. */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  /**
   * The kept page for `key` if it was read under `token` (the caller's view token, read before
   * the page's queries), as bytes carrying `csrfToken()` and the marks of `viewerId`.
   */
  get(key: string, token: string, csrfToken: () => string, live?: LivePart, viewerId?: number): PageCopy | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    const variant = live?.variant ?? '';
    if (page.token !== token || (page.variant !== variant && !page.around)) {
      this.pages.delete(key);
      this.forget(page);
      return undefined;
    }
    if (page.variant !== variant && page.around && live) this.replaceLivePart(page, page.around, live);
    page.usedSince = true;
    return this.withToken(page, csrfToken, viewerId);
  }

  /**
   * Keeps `html` (rendered with the placeholder for the token, and in slotsFor(viewerMarker))
   * and returns its bytes to send to `viewerId`.
   */
  put(key: string, token: string, html: string, csrfToken: () => string, live?: LivePart, viewerId?: number): PageCopy {
    const bytes = this.pool.take(Buffer.byteLength(html));
    bytes.write(html);
    const page: CachedPage = { key, token, bytes, csrfOffsets: placesOf(this.placeholderBytes, bytes), viewerSlots: viewerSlotsOf(bytes, this.viewerMarker), variant: live?.variant ?? '', spares: [], usedSince: false };
    if (live) {
      const part = live.render();
      const at = bytes.indexOf(part);
      // Found once, or the page is kept for this variant alone.
      if (at !== -1 && bytes.indexOf(part, at + 1) === -1) page.around = { before: bytes.subarray(0, at), after: bytes.subarray(at + Buffer.byteLength(part)) };
    }
    if (bytes.length <= MAX_PAGE_BYTES) this.keep(key, page);
    return this.withToken(page, csrfToken, viewerId);
  }

  /** The page with `live`'s part in place of the one it shows; copies of the old bytes go. */
  private replaceLivePart(page: CachedPage, around: { before: Buffer; after: Buffer }, live: LivePart): void {
    const part = live.render();
    const bytes = this.pool.take(around.before.length + Buffer.byteLength(part) + around.after.length);
    around.before.copy(bytes);
    bytes.write(part, around.before.length);
    around.after.copy(bytes, bytes.length - around.after.length);
    // The marks' places past the part move with its length (the part holds none).
    const moved = bytes.length - page.bytes.length;
    page.viewerSlots = page.viewerSlots.map((slot) => (slot.offset < around.before.length ? slot : { ...slot, offset: slot.offset + moved }));
    // The old bytes go back to the pool only now: `around` was a view of them.
    this.forget(page);
    this.keptBytes += bytes.length;
    page.bytes = bytes;
    page.csrfOffsets = placesOf(this.placeholderBytes, bytes);
    page.variant = live.variant;
    page.around = { before: bytes.subarray(0, around.before.length), after: bytes.subarray(bytes.length - around.after.length) };
  }

  private keep(key: string, page: CachedPage): void {
    const replaced = this.pages.get(key);
    if (replaced) {
      this.pages.delete(key);
      this.forget(replaced);
    }
    // Least recently used out first, nearly: pages go in the order they were kept, but one served
    // since the last time round goes to the back instead ("second chance"). Moving every page
    // served to the back of the Map (a delete and a set per request) churned its hash table.
    for (const [oldest, old] of this.pages) {
      if (this.keptBytes + page.bytes.length <= this.budgetBytes) break;
      this.pages.delete(oldest);
      if (old.usedSince) {
        old.usedSince = false;
        this.pages.set(oldest, old);
      } else {
        this.forget(old);
      }
    }
    this.pages.set(key, page);
    this.keptBytes += page.bytes.length;
  }

  /**
   * Uncounts a page no longer in `pages` (or whose bytes are being replaced), and gives its
   * bytes and spare copies back to the pool. Its bytes are never sent themselves when they hold
   * a token's or a viewer's place (withToken sends copies), so nothing is writing them out.
   */
  private forget(page: CachedPage): void {
    this.keptBytes -= page.bytes.length * (1 + page.spares.length);
    for (const spare of page.spares) this.pool.give(spare);
    page.spares = [];
    if (!sentAsItIs(page)) this.pool.give(page.bytes);
  }

  private withToken(page: CachedPage, csrfToken: () => string, viewerId: number | undefined): PageCopy {
    if (sentAsItIs(page)) return { bytes: page.bytes, done: nothingToDo };
    const token = csrfToken();
    if (token.length !== this.placeholder.length) throw new Error('a CSRF token must be as long as the placeholder it replaces');
    // A copy sent before is reused: its tokens are overwritten, the rest is already the page. A
    // new 50 KB buffer per response was garbage the collector paused for, a few ms at a time.
    let copy = page.spares.pop();
    if (copy) {
      this.keptBytes -= copy.length;
    } else {
      copy = this.pool.take(page.bytes.length);
      page.bytes.copy(copy);
    }
    for (const offset of page.csrfOffsets) copy.write(token, offset, 'latin1');
    // Every slot, the last viewer's of a copy sent before among them.
    writeViewerSlots(copy, page.viewerSlots, viewerId);
    const sent = copy;
    const of = page.bytes;
    let returned = false;
    return {
      bytes: sent,
      done: () => {
        if (returned) return;
        returned = true;
        this.recycle(page, of, sent);
      },
    };
  }

  /** Keeps a copy of `of` that was written out as a spare if its page still is `of` and there is room; else it goes back to the pool. */
  private recycle(page: CachedPage, of: Buffer, copy: Buffer): void {
    if (this.pages.get(page.key) !== page || page.bytes !== of || page.spares.length >= MAX_SPARES || this.keptBytes + copy.length > this.budgetBytes) {
      this.pool.give(copy);
      return;
    }
    page.spares.push(copy);
    this.keptBytes += copy.length;
  }
}

/**
 * A page with no token's place, nor a viewer's, is sent as its own bytes, not a copy: they may
 * be being written out.
 */
function sentAsItIs(page: CachedPage): boolean {
  return page.csrfOffsets.length === 0 && page.viewerSlots.length === 0;
}

/** Where `needle` is in `bytes`, each place. */
function placesOf(needle: Buffer, bytes: Buffer): number[] {
  const places: number[] = [];
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) places.push(at);
  return places;
}
