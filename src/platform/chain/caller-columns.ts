import type { FastifyRequest } from 'fastify';
import type { AliasableExpression, Expression, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// What features read about the caller with the statement that finds them (a page's session, an
// API token), instead of asking again: the groups feature's memberships, say. The platform names
// no such column; features add theirs before the first request, and read it back by name.

export interface CallerColumn {
  /** Its name: the statements' column `caller_<name>`, and the key of `columns` on the session and the token. */
  name: string;
  /** A scalar subquery for the caller, `userId` a reference to the user's id in the statement. */
  query: (db: Kysely<Database>, userId: Expression<number>) => AliasableExpression<unknown>;
  /**
   * Its value is part of the caller's view token (LoadedSession.viewToken): it must change
   * whenever something a kept page shows this caller from it changes (db/migrations/0007).
   */
  inViewToken?: boolean;
}

/** The columns features added, read by the session and token statements once these are built. */
export class CallerColumns {
  private readonly columns: CallerColumn[] = [];
  private read = false;

  add(column: CallerColumn): void {
    if (this.read) throw new Error('caller columns are added before the first caller is read');
    if (this.columns.some((known) => known.name === column.name)) throw new Error(`caller column ${column.name} added twice`);
    this.columns.push(column);
  }

  /** The columns, once the statements are built: none may be added after. */
  list(): readonly CallerColumn[] {
    this.read = true;
    return this.columns;
  }
}

/** The statements' select list for the columns. */
export function callerColumnsSelection(db: Kysely<Database>, columns: readonly CallerColumn[], userId: Expression<number>) {
  return columns.map((column) => column.query(db, userId).as(`caller_${column.name}`));
}

/** The columns' values from a row, by name, as the database gave them. */
export function callerValues(columns: readonly CallerColumn[], row: object): Readonly<Record<string, unknown>> {
  const values = row as Record<string, unknown>;
  return Object.freeze(Object.fromEntries(columns.map((column) => [column.name, values[`caller_${column.name}`]])));
}

/** A column's value for this request's caller, read with their session or their API token; undefined without either. */
export function callerValue(request: FastifyRequest, name: string): unknown {
  return (request.session ?? request.apiToken)?.columns[name];
}
