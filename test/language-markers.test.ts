import { describe, expect, it } from 'vitest';
import { unwrappedText } from './index.js';

describe('finding text outside the catalogue', () => {
  it('passes wrapped messages, nested ones, user content it is told of, and text without letters', () => {
    const html = '<html><head><title>⟦Notes⟧ · groupnotes</title><script>var x = "words";</script></head><body><h1>⟦Note “⟦Soup⟧” saved.⟧</h1><p>ann</p><span>12 · 3,5 €</span><time datetime="2026-11-22" title="22 Nov 2026">22 Nov</time><p>⟦Send⟧ <code>If-Match</code></p><pre>{"type": "object"}</pre><input type="submit" value="⟦Save⟧"></body></html>';
    expect(unwrappedText(html, ['ann'])).toEqual([]);
  });

  it('names text, read attributes and button values written outside the catalogue', () => {
    const html = '<body><h1>⟦Notes⟧</h1><p>Saved.</p><a aria-label="Close" href="/">⟦x⟧</a><input type="submit" value="Go"><input name="q" placeholder="⟦Search⟧"></body>';
    expect(unwrappedText(html)).toEqual(['Close', 'Go', 'Saved.']);
  });
});
