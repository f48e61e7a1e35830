import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Entry, ModelName } from './parse.js';

// What the stages of planImport (plan.ts) share: the entries by model, the report, the rows to
// write, and what earlier stages kept, by pk, for the later ones to check their references.

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export interface ImportRows {
  users: Rows<'users'>;
  groups: Rows<'groups'>;
  group_members: Rows<'group_members'>;
  notebooks: Rows<'notebooks'>;
  tags: Rows<'tags'>;
  notes: Rows<'notes'>;
  note_tags: Rows<'note_tags'>;
  todo_lists: Rows<'todo_lists'>;
  todo_list_shares: Rows<'todo_list_shares'>;
  todo_items: Rows<'todo_items'>;
  shopping_lists: Rows<'shopping_lists'>;
  shopping_list_shares: Rows<'shopping_list_shares'>;
  shopping_items: Rows<'shopping_items'>;
  chat_messages: Rows<'chat_messages'>;
  reminders: Rows<'reminders'>;
}

export interface ModelReport {
  imported: number;
  leftOut: string[];
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
export const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
export const bool = (value: unknown, fallback = false) => ((typeof value === 'boolean' ? value : fallback) ? 1 : 0);
export const ms = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
export const pks = (value: unknown) => [...new Set(Array.isArray(value) ? (value as number[]) : [])];
export const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);

/** Why a title-like text cannot be stored, or null. */
export function textProblem(what: string, value: string, max: number, required = true): string | null {
  if (required && value.trim() === '') return `${what} is empty`;
  return value.trim().length > max ? `${what} is longer than ${max} characters` : null;
}

export class Planning {
  readonly byModel: Map<ModelName, Entry[]>;
  readonly models: Map<ModelName, ModelReport>;
  readonly notices: string[] = [];
  readonly rows: ImportRows = {
    users: [],
    groups: [],
    group_members: [],
    notebooks: [],
    tags: [],
    notes: [],
    note_tags: [],
    todo_lists: [],
    todo_list_shares: [],
    todo_items: [],
    shopping_lists: [],
    shopping_list_shares: [],
    shopping_items: [],
    chat_messages: [],
    reminders: [],
  };
  /** Kept users by pk. */
  readonly users = new Map<number, { username: string; joined: number; groups: number[] }>();
  /** Kept groups' members by group pk. */
  readonly groups = new Map<number, Set<number>>();
  /** Kept notebooks' and tags' owners by pk. */
  readonly notebooks = new Map<number, number>();
  readonly tags = new Map<number, number>();
  /** Kept notes' owners by pk. */
  readonly noteOwners = new Map<number, number>();
  /** Notes, lists and messages kept in a group their owner or author is not a member of. */
  outsiders = 0;

  constructor(
    entries: readonly Entry[],
    order: readonly ModelName[],
    readonly now: number,
  ) {
    this.byModel = new Map(order.map((model) => [model, []]));
    for (const entry of entries) this.byModel.get(entry.model)!.push(entry);
    for (const list of this.byModel.values()) list.sort((a, b) => a.pk - b.pk);
    this.models = new Map(order.map((model) => [model, { imported: 0, leftOut: [] }]));
  }

  /** Runs `decide` on each entry of a model: a string is the reason it is left out; false, not imported and counted by the caller. */
  readonly each = (model: ModelName, describe: (entry: Entry) => string, decide: (entry: Entry) => string | null | false): void => {
    const report = this.models.get(model)!;
    for (const entry of this.byModel.get(model)!) {
      // PostgreSQL's text cannot hold U+0000; SQLite's could, but then the two would differ.
      const nul = Object.entries(entry.fields).find(([, value]) => typeof value === 'string' && value.includes('\u0000'));
      const reason = nul ? `its ${nul[0]} holds a NUL character, which is not stored here` : decide(entry);
      if (reason === null) report.imported += 1;
      else if (reason !== false) report.leftOut.push(`${model} pk ${entry.pk} ${describe(entry)}: ${reason}`);
    }
  };

  ownerProblem(userPk: unknown): string | null {
    return this.users.has(userPk as number) ? null : `its user pk ${String(userPk)} is not imported`;
  }

  isMember(groupPk: number, userPk: number): boolean {
    return this.groups.get(groupPk)?.has(userPk) === true;
  }

  /** Why an object cannot be in `group`, or null; one kept outside its owner's groups is counted. */
  groupProblem(group: unknown, userPk: number): string | null {
    if (group === null || group === undefined) return null;
    if (!this.groups.has(group as number)) return `its group pk ${String(group)} is not imported`;
    if (!this.isMember(group as number, userPk)) this.outsiders += 1;
    return null;
  }

  /** The colour in lower case, the fallback when none is given, null when it is not #rrggbb. */
  colorOf(value: unknown, fallback: string): string | null {
    const color = str(value).trim();
    if (color === '') return fallback;
    return COLOR.test(color) ? color.toLowerCase() : null;
  }
}
