import type { MessageKey } from '../../platform/i18n/index.js';
import { timeZoneChoices, utcOffsetIn } from '../../platform/time-zones.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { Choice, ChoiceGroup } from '../../platform/views/forms.js';

/**
 * The zones offered first: Ukraine's, those of the countries most Ukrainians abroad live in, and
 * the English-speaking countries'. Each is named by its city from the catalogue: Intl names a
 * zone ("Central European Time", the same for Warsaw, Berlin and Prague) but not its city.
 */
export const COMMON_TIME_ZONES: readonly { zone: string; city: MessageKey }[] = [
  { zone: 'Europe/Kyiv', city: 'account.zone_kyiv' },
  { zone: 'Europe/Warsaw', city: 'account.zone_warsaw' },
  { zone: 'Europe/Berlin', city: 'account.zone_berlin' },
  { zone: 'Europe/Prague', city: 'account.zone_prague' },
  { zone: 'Europe/London', city: 'account.zone_london' },
  { zone: 'Europe/Dublin', city: 'account.zone_dublin' },
  { zone: 'America/New_York', city: 'account.zone_new_york' },
  { zone: 'America/Chicago', city: 'account.zone_chicago' },
  { zone: 'America/Denver', city: 'account.zone_denver' },
  { zone: 'America/Los_Angeles', city: 'account.zone_los_angeles' },
  { zone: 'America/Toronto', city: 'account.zone_toronto' },
  { zone: 'Australia/Sydney', city: 'account.zone_sydney' },
  { zone: 'Pacific/Auckland', city: 'account.zone_auckland' },
  { zone: 'UTC', city: 'account.zone_utc' },
];
const common = new Set(COMMON_TIME_ZONES.map(({ zone }) => zone));

/**
 * The account page's zones: the common ones as "Kyiv (UTC+02:00)" in the page's language, with
 * their offset now, then every other zone by its name; `current` (the account's, a stored older
 * name shown as its current one) is among them.
 */
export function timeZoneSelectChoices(ctx: Pick<ViewContext, 't'>, current: string | undefined, now = Date.now()): ChoiceGroup[] {
  const first: Choice[] = COMMON_TIME_ZONES.map(({ zone, city }) => ({
    value: zone,
    label: ctx.t('account.timezone_choice', { city: ctx.t(city), offset: utcOffsetIn(zone, now) }),
  }));
  const others = timeZoneChoices(current).filter((zone) => !common.has(zone)).map((zone) => ({ value: zone, label: zone }));
  return [{ group: ctx.t('account.timezone_common'), choices: first }, { group: ctx.t('account.timezone_others'), choices: others }];
}
