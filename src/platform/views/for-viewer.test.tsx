import { describe, expect, it } from 'vitest';
import { renderToHtml } from './html.js';
import { ForViewer, fillViewerSlots, slotsFor, viewerSlotsOf } from './for-viewer.js';

const MARKER = '0123456789abcdef0123456789abcdef';

function names(viewerId: number) {
  return (
    <ul>
      {[7, 8, 1234567].map((id) => (
        <li>
          user{id}
          <ForViewer userId={id} viewerId={viewerId}>
            <b>ви</b>
          </ForViewer>
        </li>
      ))}
    </ul>
  );
}

describe('viewer marks', () => {
  it('render the mark for the viewer alone when a page is rendered for one viewer', () => {
    expect(renderToHtml(names(8))).toBe('<ul><li>user7</li><li>user8<b>ви</b></li><li>user1234567</li></ul>');
  });

  it('fill a page rendered for every viewer with the mark at the viewer’s place only, the bytes around unmoved', () => {
    const kept = slotsFor(MARKER, () => renderToHtml(names(8)));
    expect(kept.match(/<!--/g)).toHaveLength(3);
    for (const viewer of [7, 8, 1234567]) {
      const html = fillViewerSlots(kept, MARKER, viewer);
      expect(Buffer.byteLength(html)).toBe(Buffer.byteLength(kept));
      expect(html.match(/<b>ви<\/b>/g)).toHaveLength(1);
      expect(html).toContain(`user${viewer}<span class="viewer-mark"><b>ви</b><!--`);
      expect(html).not.toContain(MARKER);
    }
    const stranger = fillViewerSlots(kept, MARKER, 9);
    expect(stranger).not.toContain('<b>');
    expect(stranger).not.toContain(MARKER);
    // Outside slotsFor, nothing is a slot.
    expect(slotsFor(MARKER, () => renderToHtml(<p>x</p>))).toBe('<p>x</p>');
  });

  it('take an opening never closed for no slot, rather than write past it', () => {
    const kept = slotsFor(MARKER, () => renderToHtml(names(8)));
    const cut = Buffer.from(kept.slice(0, kept.lastIndexOf(`<!--${MARKER}:`) + 40));
    expect(viewerSlotsOf(cut, MARKER).map((slot) => slot.userId)).toEqual([7, 8]);
  });
});
