import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import { fixedLimit } from '../../db/fixed-limit.js';
import { isOneOf } from '../../db/id-lists.js';
import type { Database } from '../../db/schema.js';
import type { Hub } from '../../platform/hub/hub.js';
import { chooseLanguage, translate, translator } from '../../platform/i18n/index.js';
import { COUNT_CAP } from '../../platform/navigation.js';
import type { Mail } from '../../platform/mail/mailer.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import type { MergingNotification, MergingWords, NewNotification, Notifier, Recipients } from '../../services.js';

const TEXT_LIMIT = 500;

/**
 * The user's unread count, up to COUNT_CAP, read off the partial index of unread rows
 * (db/migrations/0014_notifications.ts): the session's statement embeds it (`userId` a reference
 * to its user), the live bell runs it alone.
 */
export function unreadCountQuery(db: Kysely<Database>, userId: Expression<number>) {
  return db
    .selectFrom(
      db
        .selectFrom('notifications')
        .select('notifications.id')
        .where('notifications.user_id', '=', userId)
        .where('notifications.read_at', 'is', null)
        .limit(fixedLimit(COUNT_CAP))
        .as('unread_rows'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

/** Notifications of a kind that merge (MergingNotification) do so within this long of the first, while unread. */
export const MERGE_WINDOW_MS = 10 * 60_000;

/** What mail needs: the outbox, in the caller's transaction, and the origin of links. */
export interface NotificationMail {
  outbox: Outbox;
  publicUrl: string;
}

/**
 * In-app notifications, for any feature to send. A notification is a row written in the
 * transaction of the change that causes it, so it is never lost nor doubled; `announce` then
 * tells the open pages of those users on every instance, once the transaction has committed.
 */
export class Notifications implements Notifier {
  /** Users mailed since their last announce: announce wakes this instance's sender for them. */
  private readonly mailed = new Set<number>();

  /**
   * Without a hub (a CLI command), announce does nothing: the caller tells running servers itself.
   * Without `mail`, nothing is mailed.
   */
  constructor(
    private readonly hub: Pick<Hub, 'publish'> | null,
    private readonly mail: NotificationMail | null = null,
  ) {}

  /** Queues one notification per user, in `db` (the caller's transaction), and its mail to those who chose it. */
  async add(db: Kysely<Database>, userIds: readonly number[], notification: NewNotification, now = Date.now()): Promise<void> {
    const recipients = [...new Set(userIds)];
    if (recipients.length === 0) return;
    const { text, message } = stored(notification.text);
    const link = sameSite(notification.link);
    await db
      .insertInto('notifications')
      .values(recipients.map((userId) => ({ user_id: userId, kind: notification.kind, text, message, link, created_at: now, read_at: null })))
      .execute();
    if (notification.mail) await this.mailTo(db, recipients, notification.text, link, now);
  }

  /**
   * Marks read these users' unread notifications of `kind` that point at `link` and were made at
   * `upTo` or before, in `db`, in one statement (on the index of unread rows); the users whose
   * unread count moved, to announce after commit.
   */
  async readAbout(db: Kysely<Database>, userIds: readonly number[], about: { kind: string; link: string; upTo: number }, now = Date.now()): Promise<number[]> {
    const users = [...new Set(userIds)];
    if (users.length === 0) return [];
    const rows = await db
      .updateTable('notifications')
      .set({ read_at: now })
      .where((eb) => isOneOf(db, eb.ref('user_id'), users))
      .where('read_at', 'is', null)
      .where('kind', '=', about.kind)
      .where('link', '=', about.link)
      .where('created_at', '<=', about.upTo)
      .returning('user_id')
      .execute();
    return [...new Set(rows.map((row) => row.user_id))];
  }

  /** Tells these users' open pages, here and on every other instance, that their unread count moved. Call after commit. */
  announce(userIds: readonly number[]): void {
    const recipients = [...new Set(userIds)];
    if (recipients.length > 0) this.hub?.publish({ type: 'notifications.changed', userIds: recipients });
    if (this.mailed.size > 0 && recipients.some((id) => this.mailed.delete(id))) this.mail?.outbox.wake();
  }

  async addMerging(db: Kysely<Database>, recipients: Recipients, notification: MergingNotification, now = Date.now()): Promise<number[]> {
    const { merged, added } = this.mergingStatements(db, recipients, notification, sql<SqlBool>`1 = 1`, now);
    const told = [...(await db.executeQuery<{ user_id: number }>(merged.compile())).rows, ...(await db.executeQuery<{ user_id: number }>(added.compile())).rows];
    return told.map((row) => row.user_id);
  }

  /**
   * The merge is an UPDATE of the recipients' recent unread rows of the key (their count one up,
   * their words and link those of several), then an INSERT for the recipients who have none such.
   * The INSERT asks the same question as the UPDATE, so it gives the same answer whether it sees
   * the UPDATE's rows (in a transaction) or not (in one statement). The words are made in SQL
   * (wordsInSql), so that the values read in the statement and the new count go into them.
   */
  mergingStatements(db: Kysely<Database>, recipients: Recipients, notification: MergingNotification, when: Expression<SqlBool>, now = Date.now()) {
    const { kind, mergeKey, one, many } = notification;
    const since = now - MERGE_WINDOW_MS;
    const several = wordsInSql(db, many.text, sql<number>`${sql.ref('count')} + 1`);
    const merged = db
      .updateTable('notifications')
      .set({ count: sql<number>`${sql.ref('count')} + 1`, link: sameSite(many.link), message: several.message, text: several.text })
      .where('merge_key', '=', mergeKey)
      .where('read_at', 'is', null)
      .where('created_at', '>', since)
      .where('user_id', 'in', recipients)
      .where(when)
      .returning('user_id');
    const single = wordsInSql(db, one.text);
    const value = <T>(v: T, type: string) => sql<T>`cast(${v} as ${sql.raw(type)})`;
    const added = db
      .insertInto('notifications')
      .columns(['user_id', 'kind', 'text', 'message', 'link', 'created_at', 'read_at', 'merge_key', 'count'])
      .expression(
        db
          .selectFrom(recipients.as('recipients'))
          .select([
            'recipients.user_id',
            value(kind, 'text').as('kind'),
            single.text.as('text'),
            single.message.as('message'),
            value(sameSite(one.link), 'text').as('link'),
            value(now, 'bigint').as('created_at'),
            value(null, 'bigint').as('read_at'),
            value(mergeKey, 'text').as('merge_key'),
            value(1, 'integer').as('count'),
          ])
          .where(when)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('notifications as recent')
                  .select('recent.id')
                  .whereRef('recent.user_id', '=', 'recipients.user_id')
                  .where('recent.merge_key', '=', mergeKey)
                  .where('recent.read_at', 'is', null)
                  .where('recent.created_at', '>', since),
              ),
            ),
          ),
      )
      .returning('user_id');
    return { merged, added };
  }

  /** The notification's mail to those of `recipients` who chose mail and have an address, each in their language. */
  private async mailTo(db: Kysely<Database>, recipients: number[], words: NewNotification['text'], link: string, now: number): Promise<void> {
    if (!this.mail) return;
    const { outbox, publicUrl } = this.mail;
    const users = await db
      .selectFrom('users')
      .select(['id', 'email', 'language'])
      .where('id', 'in', recipients)
      .where('mail_notifications', '=', 1)
      .where('email', '<>', '')
      .where('is_active', '=', 1)
      .execute();
    if (users.length === 0) return;
    const mails: Mail[] = users.map((user) => {
      const t = translator(chooseLanguage(undefined, user.language));
      const said = (typeof words === 'string' ? words : translate(t, words)).replace(/\s+/g, ' ').trim();
      const lines = [said, '', ...(link ? [t.t('notification_mail.open', { url: `${publicUrl}${link}` }), ''] : []), t.t('notification_mail.why', { url: `${publicUrl}/accounts/notifications/` })];
      return { to: user.email, subject: said.slice(0, 200), text: lines.join('\n') };
    });
    await outbox.enqueueIn(db, mails, now);
    // Bounded: a change that rolled back leaves its users here until their next announce.
    if (this.mailed.size > 10_000) this.mailed.clear();
    for (const user of users) this.mailed.add(user.id);
  }
}

/** A notification's words as stored: its text in English (cut to TEXT_LIMIT) and its message, JSON ('' for words already in their reader's language). */
function stored(words: NewNotification['text']): { text: string; message: string } {
  const text = typeof words === 'string' ? words : english(words);
  return { text: text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text, message: typeof words === 'string' ? '' : JSON.stringify(words) };
}

function english(words: Exclude<NewNotification['text'], string>): string {
  return translate(translator('en'), words);
}

/** A same-site path, or ''. */
function sameSite(link: string | undefined): string {
  return link?.startsWith('/') && !link.startsWith('//') ? link : '';
}

/** A number no words hold, put where a count goes in the words, to find where that is. */
const COUNT_MARK = 987_654_321;

/**
 * A message's English text and its JSON as SQL: the words are the catalogue's, rendered with a
 * mark where each expression value (and `count`, when given) goes, and the marks then replaced
 * by those expressions in the statement: JSON-quoted in the message, as they are in the text (cut
 * to TEXT_LIMIT). What people typed is thus a parameter, never part of the words.
 */
function wordsInSql(db: Kysely<Database>, words: MergingWords, count?: Expression<number>): { text: RawBuilder<string>; message: RawBuilder<string> } {
  const literal: Record<string, string | number> = {};
  const spliced = new Map<string, Expression<unknown>>();
  for (const [name, value] of Object.entries(words.values)) {
    if (typeof value === 'string' || typeof value === 'number') literal[name] = value;
    else {
      const mark = `\uE000${name}\uE001`;
      literal[name] = mark;
      spliced.set(mark, sql`coalesce(${value}, '')`);
    }
  }
  if (count) literal.count = COUNT_MARK;
  const english = translate(translator('en'), { key: words.key, values: literal });
  const json = JSON.stringify({ key: words.key, values: literal });
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const quoted = (value: Expression<unknown>) => (postgres ? sql`cast(to_json(cast(${value} as text)) as text)` : sql`json_quote(${value})`);
  const countText = count && sql`cast(${count} as varchar(12))`;
  const inText = new Map<string, Expression<unknown>>(spliced);
  const inJson = new Map<string, Expression<unknown>>([...spliced].map(([mark, value]) => [JSON.stringify(mark), quoted(value)]));
  if (countText) {
    inText.set(new Intl.NumberFormat('en').format(COUNT_MARK), countText);
    inJson.set(String(COUNT_MARK), countText);
  }
  return { text: sql<string>`substr(${concatenated(english, inText)}, 1, ${TEXT_LIMIT})`, message: concatenated(json, inJson) };
}

/** `template` as an SQL text, each of `marks` in it replaced by its expression. */
function concatenated(template: string, marks: Map<string, Expression<unknown>>): RawBuilder<string> {
  if (marks.size === 0) return sql<string>`cast(${template} as text)`;
  const pattern = new RegExp([...marks.keys()].map((mark) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const parts: RawBuilder<unknown>[] = [];
  let at = 0;
  for (const match of template.matchAll(pattern)) {
    if (match.index > at) parts.push(sql`cast(${template.slice(at, match.index)} as text)`);
    parts.push(sql`cast(${marks.get(match[0])!} as text)`);
    at = match.index + match[0].length;
  }
  if (at < template.length || parts.length === 0) parts.push(sql`cast(${template.slice(at)} as text)`);
  return sql<string>`(${sql.join(parts, sql` || `)})`;
}
