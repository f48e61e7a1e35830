import type { ComponentChildren } from 'preact';
import { renderToHtml } from './html.js';

// What a page shows its viewer alone ("you" beside their name among a note's readers), in a page
// kept once for all its viewers (page-cache.ts). Such a page is rendered with a slot at each
// place: an HTML comment naming the user the place is for and holding the mark, of a length the
// mark fits in. Each copy sent writes every slot over, with the mark for its viewer's places and
// a blank comment of the same length for the others' (the bytes around never move), so no copy
// shows another viewer's mark, nor the slot's marker.

/** The marker of the page being rendered for every viewer, while it is (slotsFor). */
let marking: string | null = null;

/** Renders with every ForViewer as a slot opened by `marker` (unguessable: see page-cache.ts). */
export function slotsFor<T>(marker: string, render: () => T): T {
  const outer = marking;
  marking = marker;
  try {
    return render();
  } finally {
    marking = outer;
  }
}

/** `children`, shown only when the page's viewer is `userId`. */
export function ForViewer({ userId, viewerId, children }: { userId: number; viewerId: number; children: ComponentChildren }) {
  if (marking === null) return userId === viewerId ? <>{children}</> : null;
  const mark = Buffer.from(renderToHtml(children)).toString('base64');
  // The comment is longer than the mark and a blank comment together: the slot holds either.
  return <span class="viewer-mark" dangerouslySetInnerHTML={{ __html: `<!--${marking}:${userId}:${mark}-->` }} />;
}

/** One place of a viewer's mark: what is written there for its user, and for anyone else. */
export interface ViewerSlot {
  offset: number;
  userId: number;
  shown: Buffer;
  hidden: Buffer;
}

const OPEN = '<!--';
const CLOSE = '-->';

function blank(length: number): string {
  return `${OPEN}${' '.repeat(length - OPEN.length - CLOSE.length)}${CLOSE}`;
}

/** The slots of a page rendered in slotsFor(marker), in order. */
export function viewerSlotsOf(bytes: Buffer, marker: string): ViewerSlot[] {
  const opening = Buffer.from(`${OPEN}${marker}:`, 'latin1');
  const slots: ViewerSlot[] = [];
  for (let at = bytes.indexOf(opening); at !== -1; at = bytes.indexOf(opening, at + 1)) {
    const end = bytes.indexOf(CLOSE, at + opening.length, 'latin1');
    if (end === -1) break;
    const [userId, mark] = bytes.toString('latin1', at + opening.length, end).split(':');
    const length = end + CLOSE.length - at;
    const shown = Buffer.from(mark ?? '', 'base64');
    slots.push({ offset: at, userId: Number(userId), shown: Buffer.concat([shown, Buffer.from(blank(length - shown.length))]), hidden: Buffer.from(blank(length)) });
  }
  return slots;
}

/** Writes every slot of `copy` for `viewerId`: their mark where it is theirs, blanks elsewhere. */
export function writeViewerSlots(copy: Buffer, slots: readonly ViewerSlot[], viewerId: number | undefined): void {
  for (const slot of slots) (slot.userId === viewerId ? slot.shown : slot.hidden).copy(copy, slot.offset);
}

/** `html` as written for `viewerId`, for a page rendered in slotsFor(marker) and sent once. */
export function fillViewerSlots(html: string, marker: string, viewerId: number | undefined): string {
  const bytes = Buffer.from(html);
  const slots = viewerSlotsOf(bytes, marker);
  if (slots.length === 0) return html;
  writeViewerSlots(bytes, slots, viewerId);
  return bytes.toString();
}
