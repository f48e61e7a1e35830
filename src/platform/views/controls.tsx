import { pageLanguage, say } from '../i18n/index.js';
import { currentZoneName, dateTimeIn } from '../time-zones.js';
import { ConfirmPage } from './confirm.js';
import type { ViewContext } from './context.js';

// Pieces shared by several features: the delete confirmation and dates.

/**
 * What a delete confirmation deletes: a select value of its messages (confirm.delete_*), which
 * word it as each language wants it after "delete" (Ukrainian: the accusative, `нотатку`).
 */
export type DeletedKind = 'note' | 'reminder' | 'notebook' | 'tag' | 'item';

/** GET on a /delete/ path: says what will go and asks for the POST. */
export function DeleteConfirmPage({ ctx, kind, name, action, cancel, consequence }: {
  ctx: ViewContext;
  kind: DeletedKind;
  name: string;
  action: string;
  cancel: string;
  consequence: string;
}) {
  return (
    <ConfirmPage ctx={ctx} title={ctx.t('confirm.delete_title', { kind })} heading={ctx.t('confirm.delete_heading', { kind })} action={action}
      button={ctx.t('confirm.delete')} cancel={cancel}>
      <p>
        <strong>{name}</strong>
      </p>
      <p>{consequence}</p>
    </ConfirmPage>
  );
}

/**
 * A moment. Given the signed-in reader's zone (`ctx.user?.timezone`), in that zone as the server
 * knows it, which the browser's script then leaves alone (data-zone); undefined (nobody signed
 * in), in UTC, which the script shows in the browser's zone. Required, so that no page forgets it.
 */
export function Time({ ms, timeZone }: { ms: number; timeZone: string | undefined }) {
  const iso = new Date(ms).toISOString();
  if (timeZone) {
    return (
      <time datetime={iso} data-zone={timeZone} title={currentZoneName(timeZone)}>
        {dateTimeIn(timeZone, ms, pageLanguage())}
      </time>
    );
  }
  return <time datetime={iso}>{say({ key: 'time.utc', values: { time: iso.replace('T', ' ').slice(0, 16) } })}</time>;
}

/**
 * A moment as how long ago it was ("3 hours ago"), with the date and time in the user's zone as
 * its tooltip; the browser's script leaves it as it is (data-relative).
 */
export function TimeAgo({ ms, text, timeZone }: { ms: number; text: string; timeZone: string }) {
  return (
    <time datetime={new Date(ms).toISOString()} data-relative="" title={dateTimeIn(timeZone, ms, pageLanguage())}>
      {text}
    </time>
  );
}

/**
 * A calendar date (`YYYY-MM-DD`, a due date): the same day in every zone, written by the server in
 * the page's language ("4 Dec 2026", "4 груд. 2026 р."), so that a row rendered for a live update
 * reads as the page does; the browser's script leaves it as it is (data-zone).
 */
export function CalendarDate({ date }: { date: string }) {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return (
    <time datetime={date} data-format="date" data-zone="UTC">
      {Number.isNaN(ms) ? date : dateTimeIn('UTC', ms, pageLanguage(), 'date')}
    </time>
  );
}
