import { describe, expect, it } from 'vitest';
import { describeUserAgent, timeAgo } from './user-agent.js';

describe('describeUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0 Mobile/15E148 Safari/604.1', 'Chrome on iOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera on Windows'],
    ['curl/8.5.0', 'curl'],
    ['', 'Unknown browser'],
    ['SomethingElse/1.0', 'Unknown browser'],
  ])('%s is %s', (userAgent, expected) => {
    // As the sessions page puts it in English.
    const { browser, system } = describeUserAgent(userAgent);
    expect([browser ?? 'Unknown browser', system].filter(Boolean).join(' on ')).toBe(expected);
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  it.each([
    [now - 10_000, null],
    [now - 5 * 60_000, '5 minutes ago'],
    [now - 3 * 3600_000, '3 hours ago'],
    [now - 26 * 3600_000, 'yesterday'],
    [now - 15 * 24 * 3600_000, '2 weeks ago'],
    [now + 60_000, null],
  ])('%d is %s', (ms, expected) => {
    expect(timeAgo(ms, 'en', now)).toBe(expected);
  });

  it('speaks the page’s language', () => {
    expect(timeAgo(now - 5 * 60_000, 'uk', now)).toBe('5 хвилин тому');
  });
});
