import { describe, expect, it } from 'vitest';
import { currentZoneName, isTimeZone, TIME_ZONES, timeZoneChoices, utcOffsetIn } from './time-zones.js';

describe('time zone names', () => {
  it('lists zones under their current names (Europe/Kyiv), though ICU lists the older ones', () => {
    expect(TIME_ZONES[0]).toBe('UTC');
    expect(TIME_ZONES).toContain('Europe/Kyiv');
    expect(TIME_ZONES).toContain('Asia/Kolkata');
    expect(TIME_ZONES).not.toContain('Europe/Kiev');
    expect(TIME_ZONES).not.toContain('Asia/Calcutta');
    expect(new Set(TIME_ZONES).size).toBe(TIME_ZONES.length);
  });

  it('takes an older name for the same zone as its current one, and leaves every other name alone', () => {
    expect(currentZoneName('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(currentZoneName('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(currentZoneName('Europe/Bratislava')).toBe('Europe/Bratislava');
    expect(currentZoneName('constructor')).toBe('constructor');
  });

  it('accepts the older and the current names alike, and links such as US/Eastern', () => {
    for (const name of ['Europe/Kiev', 'Europe/Kyiv', 'America/New_York', 'US/Eastern']) expect([name, isTimeZone(name)]).toEqual([name, true]);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('offers a stored name it does not list, under its current name when it has one', () => {
    expect(timeZoneChoices('Europe/Kiev')).toBe(TIME_ZONES);
    expect(timeZoneChoices('US/Eastern')).toEqual(['US/Eastern', ...TIME_ZONES]);
    expect(timeZoneChoices('Mars/Olympus')).toBe(TIME_ZONES);
  });

  it('says how far a zone is from UTC at a moment, summer time included', () => {
    expect(utcOffsetIn('Europe/Kyiv', Date.UTC(2026, 0, 15))).toBe('+02:00');
    expect(utcOffsetIn('Europe/Kiev', Date.UTC(2026, 6, 15))).toBe('+03:00');
    expect(utcOffsetIn('America/New_York', Date.UTC(2026, 0, 15))).toBe('-05:00');
    expect(utcOffsetIn('Asia/Kolkata', Date.UTC(2026, 0, 15))).toBe('+05:30');
    expect(utcOffsetIn('UTC', Date.UTC(2026, 0, 15))).toBe('+00:00');
  });
});
