import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEFAULT_PASSWORD, loggedIn, type TestApp } from '../../../test/index.js';
import { translator } from '../../platform/i18n/index.js';
import { TIME_ZONES } from '../../platform/time-zones.js';
import { timeZoneSelectChoices } from './time-zone-choices.js';

// The account page's time zone select: the common zones first, named in the page's language
// with their offset, then every other zone; a stored older name is the same zone as its current.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const WINTER = Date.UTC(2026, 0, 15);
const SUMMER = Date.UTC(2026, 6, 15);
const storedZone = async (id: number) => (await t.db.selectFrom('users').select('timezone').where('id', '=', id).executeTakeFirstOrThrow()).timezone;
/** The select's HTML, from its opening tag to its close. */
const selectOf = (html: string) => /<select id="id_timezone"[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';

describe('the time zone choices', () => {
  it('put Europe/Kyiv first among the common zones, as its city and offset then, in English and Ukrainian', () => {
    const [common, others] = timeZoneSelectChoices(translator('en'), undefined, WINTER);
    expect(common!.group).toBe('Common time zones');
    expect(common!.choices.slice(0, 2)).toEqual([{ value: 'Europe/Kyiv', label: 'Kyiv (UTC+02:00)' }, { value: 'Europe/Warsaw', label: 'Warsaw (UTC+01:00)' }]);
    expect(common!.choices).toContainEqual({ value: 'America/New_York', label: 'New York (UTC-05:00)' });
    expect(timeZoneSelectChoices(translator('en'), undefined, SUMMER)[0]!.choices[0]).toEqual({ value: 'Europe/Kyiv', label: 'Kyiv (UTC+03:00)' });
    const [ukrainian] = timeZoneSelectChoices(translator('uk'), undefined, WINTER);
    expect(ukrainian!.group).toBe('Поширені часові пояси');
    expect(ukrainian!.choices[0]).toEqual({ value: 'Europe/Kyiv', label: 'Київ (UTC+02:00)' });
    // Then every other zone once, by its name.
    expect(others!.group).toBe('All other time zones');
    const offered = [...common!.choices, ...others!.choices].map((choice) => choice.value);
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered].sort()).toEqual([...TIME_ZONES].sort());
    expect(others!.choices).toContainEqual({ value: 'Africa/Abidjan', label: 'Africa/Abidjan' });
  });
});

describe('the account page’s time zone select', () => {
  it('offers the common zones in a group of their own, Kyiv first, before every other zone', async () => {
    const { browser } = await loggedIn(t);
    const select = selectOf((await browser.get('/accounts/')).body);
    expect(select).toMatch(/^<select[^>]*><optgroup label="Common time zones"><option value="Europe\/Kyiv">Kyiv \(UTC\+0[23]:00\)<\/option>/);
    expect(select.indexOf('<option value="UTC" selected>')).toBeLessThan(select.indexOf('<optgroup label="All other time zones">'));
    expect(select).toContain('<optgroup label="All other time zones"><option value="Africa/Abidjan">Africa/Abidjan</option>');
    expect(select).not.toContain('Europe/Kiev');
  });

  it('names the common zones in Ukrainian on a Ukrainian page', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', user.id).execute();
    const select = selectOf((await browser.get('/accounts/')).body);
    expect(select).toMatch(/^<select[^>]*><optgroup label="Поширені часові пояси"><option value="Europe\/Kyiv">Київ \(UTC\+0[23]:00\)<\/option>/);
    expect(select).toContain('<optgroup label="Усі інші часові пояси">');
  });

  it('shows a stored Europe/Kiev as the Kyiv choice', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ timezone: 'Europe/Kiev' }).where('id', '=', user.id).execute();
    const select = selectOf((await browser.get('/accounts/')).body);
    expect(select).toMatch(/<option value="Europe\/Kyiv" selected>Kyiv \(UTC\+0[23]:00\)<\/option>/);
    expect(select).not.toContain('Europe/Kiev');
  });

  it('saves Europe/Kyiv and the older Europe/Kiev alike, each shown as Kyiv', async () => {
    const { user, browser } = await loggedIn(t);
    for (const zone of ['Europe/Kyiv', 'Europe/Kiev']) {
      expect((await browser.post('/accounts/', { email: '', timezone: zone, password: DEFAULT_PASSWORD })).statusCode).toBe(302);
      expect(await storedZone(user.id)).toBe(zone);
      expect(selectOf((await browser.get('/accounts/')).body)).toContain('<option value="Europe/Kyiv" selected>');
    }
  });
});
