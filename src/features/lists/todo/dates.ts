// Due dates are calendar dates without a time zone, kept as `YYYY-MM-DD` text: they sort and
// compare correctly as strings on both databases. "Today" is the reader's (platform/time-zones.ts).

const FIRST_YEAR = 1900;
const LAST_YEAR = 2999;

/** True for a real calendar date between 1900-01-01 and 2999-12-31 written as YYYY-MM-DD. */
export function isValidDueDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** An open item whose due date has passed. Done items are never overdue. */
export function isOverdue(item: { due_date: string | null; is_done: number }, today: string): boolean {
  return item.is_done === 0 && item.due_date !== null && item.due_date < today;
}
