import { localeOf } from '../../platform/time-zones.js';

// "Chrome on Linux" for a session's User-Agent string: enough to tell one's own devices apart on
// the sessions page. The order matters: Edge, Opera and Samsung Internet also say "Chrome", and
// Chrome also says "Safari". The raw string stays available as the cell's title.

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^python-requests\//, 'Python requests'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function first(table: [RegExp, string][], userAgent: string): string | undefined {
  return table.find(([pattern]) => pattern.test(userAgent))?.[1];
}

/** The browser and the system named by a User-Agent string, each when known ("Firefox", "Windows"). */
export function describeUserAgent(userAgent: string): { browser?: string | undefined; system?: string | undefined } {
  return { browser: first(BROWSERS, userAgent), system: first(SYSTEMS, userAgent) };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/**
 * "5 minutes ago", "yesterday", "3 weeks ago" in `language`: how long ago `ms` was, roughly; null
 * under a minute, which the page says in its own words ("just now").
 */
export function timeAgo(ms: number, language: string, now = Date.now()): string | null {
  const elapsed = Math.max(0, now - ms);
  const relative = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return relative.format(-Math.floor(elapsed / size), unit);
  }
  return null;
}
