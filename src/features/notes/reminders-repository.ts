import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ReminderInput } from './reminders-forms.js';

export interface ReminderRow {
  id: number;
  note_id: number;
  local_time: string;
  time_zone: string;
  repeat: 'none' | 'daily' | 'weekly' | 'monthly';
  message: string;
  next_due_at: number;
}

const COLUMNS = ['id', 'note_id', 'local_time', 'time_zone', 'repeat', 'message', 'next_due_at'] as const;

/**
 * The reminders `userId` set on the note of the outer query, soonest first: none unless they own
 * it (a reminder's owner is its note's owner). Read with the note, in its query.
 */
export function ownRemindersOnNote(eb: ExpressionBuilder<Database, 'notes'>, userId: number) {
  return eb
    .selectFrom('reminders')
    .select(COLUMNS.map((column) => `reminders.${column}` as const))
    .whereRef('reminders.note_id', '=', 'notes.id')
    .where('reminders.owner_id', '=', userId)
    .orderBy('reminders.next_due_at')
    .orderBy('reminders.id');
}

/** The new reminder's id, or why there is none: the note has `cap` already, or is not the caller's. */
export type AddOutcome = { added: number } | 'full' | 'missing';

/** Reminders, always of a note the caller owns: nobody else sees or changes them. */
export class RemindersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Adds a reminder to a note the caller owns, unless it has `cap` already. The note's row is
   * locked (PostgreSQL; SQLite transactions take turns) so that neither a deletion nor another
   * addition comes between the checks and the insert.
   */
  async addToOwnedNote(ownerId: number, noteId: number, input: ReminderInput, cap: number, now = Date.now()): Promise<AddOutcome> {
    return this.db.transaction().execute(async (trx) => {
      let owned = trx.selectFrom('notes').select('id').where('id', '=', noteId).where('owner_id', '=', ownerId);
      if (this.dialect === 'postgres') owned = owned.forUpdate();
      if (!(await owned.executeTakeFirst())) return 'missing';
      const { count } = await trx.selectFrom('reminders').select((eb) => eb.fn.countAll<number>().as('count')).where('note_id', '=', noteId).executeTakeFirstOrThrow();
      if (Number(count) >= cap) return 'full';
      const { id } = await trx
        .insertInto('reminders')
        .values({
          note_id: noteId,
          owner_id: ownerId,
          local_time: input.localTime,
          time_zone: input.timeZone,
          repeat: input.repeat,
          message: input.message,
          next_due_at: input.dueAt,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { added: id };
    });
  }

  /** For the delete confirmation: the caller's reminder with its note's title. */
  findOwned(ownerId: number, id: number): Promise<(ReminderRow & { note_title: string }) | undefined> {
    return this.db
      .selectFrom('reminders')
      .innerJoin('notes', 'notes.id', 'reminders.note_id')
      .select(COLUMNS.map((column) => `reminders.${column}` as const))
      .select('notes.title as note_title')
      .where('reminders.id', '=', id)
      .where('reminders.owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  /** Deletes the caller's reminder; the note it was on, or undefined when there is none of theirs. */
  async deleteOwned(ownerId: number, id: number): Promise<number | undefined> {
    const row = await this.db.deleteFrom('reminders').where('id', '=', id).where('owner_id', '=', ownerId).returning('note_id').executeTakeFirst();
    return row?.note_id;
  }
}
