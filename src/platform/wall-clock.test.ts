import { describe, expect, it } from 'vitest';
import { dueFrom, formatWallTime, nextOccurrence, parseWallTime, resolveWallTime, type WallTime } from './wall-clock.js';

const wall = (text: string): WallTime => parseWallTime(text)!;
const utc = (iso: string) => Date.parse(iso);

describe('wall-clock times', () => {
  it('reads what datetime-local inputs send, with or without seconds, and refuses non-dates', () => {
    expect(wall('2026-03-01T09:05')).toEqual({ year: 2026, month: 3, day: 1, hour: 9, minute: 5, second: 0 });
    expect(wall('2026-03-01T09:05:07')).toMatchObject({ second: 7 });
    expect(wall('2026-03-01T09:05:07.250')).toMatchObject({ second: 7 });
    expect(formatWallTime(wall('2026-03-01T09:05:00'))).toBe('2026-03-01T09:05');
    for (const bad of ['', '2026-02-29T10:00', '2026-13-01T10:00', '2026-01-01T24:00', '2026-01-01 10:00', '2026-1-1T10:00', '2026-01-01T10:00Z', '2026-01-01T10:60']) {
      expect(parseWallTime(bad), bad).toBeNull();
    }
  });

  it('puts 09:00 in Kyiv at 07:00 UTC in winter and 06:00 UTC in summer', () => {
    expect(resolveWallTime(wall('2026-01-15T09:00'), 'Europe/Kyiv')).toEqual({ instant: utc('2026-01-15T07:00:00Z'), exists: true });
    expect(resolveWallTime(wall('2026-07-15T09:00'), 'Europe/Kyiv')).toEqual({ instant: utc('2026-07-15T06:00:00Z'), exists: true });
  });

  it('says a time in the spring-forward gap does not exist, and takes the earlier of a repeated hour', () => {
    // Kyiv moves from 03:00 to 04:00 on 29 March 2026, and from 04:00 back to 03:00 on 25 October.
    expect(resolveWallTime(wall('2026-03-29T03:30'), 'Europe/Kyiv')).toEqual({ instant: utc('2026-03-29T01:30:00Z'), exists: false });
    expect(resolveWallTime(wall('2026-10-25T03:30'), 'Europe/Kyiv')).toEqual({ instant: utc('2026-10-25T00:30:00Z'), exists: true });
  });

  it('keeps a daily 09:00 at 09:00 local across a DST change', () => {
    const start = wall('2026-03-27T09:00');
    const first = nextOccurrence(start, 'Europe/Kyiv', 'daily', utc('2026-03-27T07:00:00Z'));
    expect(first).toBe(utc('2026-03-28T07:00:00Z'));
    expect(nextOccurrence(start, 'Europe/Kyiv', 'daily', first!)).toBe(utc('2026-03-29T06:00:00Z'));
    expect(nextOccurrence(start, 'Europe/Kyiv', 'daily', utc('2026-03-29T06:00:00Z'))).toBe(utc('2026-03-30T06:00:00Z'));
  });

  it('clamps a monthly 31st to shorter months and comes back to the 31st', () => {
    const start = wall('2026-01-31T10:00');
    const feb = nextOccurrence(start, 'UTC', 'monthly', utc('2026-01-31T10:00:00Z'));
    expect(feb).toBe(utc('2026-02-28T10:00:00Z'));
    expect(nextOccurrence(start, 'UTC', 'monthly', feb!)).toBe(utc('2026-03-31T10:00:00Z'));
    expect(nextOccurrence(start, 'UTC', 'monthly', utc('2026-04-01T00:00:00Z'))).toBe(utc('2026-04-30T10:00:00Z'));
    expect(nextOccurrence(wall('2023-12-31T10:00'), 'UTC', 'monthly', utc('2024-01-31T10:00:00Z'))).toBe(utc('2024-02-29T10:00:00Z'));
  });

  it('skips the occurrences missed while nothing ran, to the next one in the future', () => {
    const start = wall('2025-01-06T08:00');
    expect(nextOccurrence(start, 'UTC', 'weekly', utc('2026-01-07T12:00:00Z'))).toBe(utc('2026-01-12T08:00:00Z'));
    expect(nextOccurrence(start, 'UTC', 'daily', utc('2026-01-07T12:00:00Z'))).toBe(utc('2026-01-08T08:00:00Z'));
    expect(nextOccurrence(start, 'UTC', 'monthly', utc('2026-01-07T12:00:00Z'))).toBe(utc('2026-02-06T08:00:00Z'));
    expect(nextOccurrence(start, 'UTC', 'none', utc('2026-01-07T12:00:00Z'))).toBeNull();
  });

  it('moves a daily time that falls in a gap on one day to just after the gap, that day only', () => {
    const start = wall('2026-03-28T03:30');
    expect(nextOccurrence(start, 'Europe/Kyiv', 'daily', utc('2026-03-28T02:00:00Z'))).toBe(utc('2026-03-29T01:30:00Z'));
    expect(nextOccurrence(start, 'Europe/Kyiv', 'daily', utc('2026-03-29T01:30:00Z'))).toBe(utc('2026-03-30T00:30:00Z'));
  });

  it('puts an imported schedule at its start while that is to come, else at its next occurrence; a passed one-off nowhere', () => {
    const start = wall('2026-01-06T08:00');
    const now = utc('2026-01-20T12:00:00Z');
    expect(dueFrom(start, 'UTC', 'none', utc('2026-01-01T00:00:00Z'))).toBe(utc('2026-01-06T08:00:00Z'));
    expect(dueFrom(start, 'UTC', 'weekly', utc('2026-01-06T08:00:00Z'))).toBe(utc('2026-01-06T08:00:00Z'));
    expect(dueFrom(start, 'UTC', 'weekly', now)).toBe(utc('2026-01-27T08:00:00Z'));
    expect(dueFrom(start, 'Europe/Kyiv', 'monthly', now)).toBe(utc('2026-02-06T06:00:00Z'));
    expect(dueFrom(start, 'UTC', 'none', now)).toBeNull();
  });
});
