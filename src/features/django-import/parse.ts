import { MAX_ID } from '../../platform/ids.js';

// Reading a `manage.py dumpdata` file of the original Django application: a JSON list of
// {"model", "pk", "fields"}. Anything that is not that shape (not JSON, truncated, a field of the
// wrong type) is a BadDump naming the entry, model and field: the import stops before writing.
// Whether the values keep this service's rules (lengths, owners, links) is the planner's job
// (plan.ts), which leaves offending objects out instead of stopping.

/** A file that is not a dump of the expected shape: one line, nothing imported. */
export class BadDump extends Error {}

type Kind = 'text' | 'int' | 'bool' | 'datetime' | 'date' | 'decimal' | 'pk' | 'pks' | 'ignored';

interface FieldSpec {
  kind: Kind;
  required?: boolean;
  /** null is a value (a nullable foreign key or date); otherwise null counts as absent. */
  nullable?: boolean;
}

const text = (required = false): FieldSpec => ({ kind: 'text', required });
const datetime: FieldSpec = { kind: 'datetime' };
const owner: FieldSpec = { kind: 'pk', required: true };
const IGNORED: FieldSpec = { kind: 'ignored' };

/** The models imported, field by field. Fields not named here are counted as unknown. */
export const MODELS = {
  'auth.user': {
    username: text(true),
    password: text(true),
    email: text(),
    is_active: { kind: 'bool' },
    is_superuser: { kind: 'bool' },
    date_joined: datetime,
    last_login: { kind: 'datetime', nullable: true },
    groups: { kind: 'pks' },
    first_name: IGNORED,
    last_name: IGNORED,
    is_staff: IGNORED,
    user_permissions: IGNORED,
  },
  'auth.group': { name: text(true), permissions: IGNORED },
  'notes_app.notebook': { user: owner, title: text(true), description: text(), color: text(), created_at: datetime, updated_at: datetime },
  'notes_app.tag': { user: owner, name: text(true), color: text(), created_at: datetime },
  'notes_app.note': {
    user: owner,
    title: text(true),
    content: text(),
    notebook: { kind: 'pk', nullable: true },
    tags: { kind: 'pks' },
    group: { kind: 'pk', nullable: true },
    priority: { kind: 'int' },
    is_pinned: { kind: 'bool' },
    is_archived: { kind: 'bool' },
    created_at: datetime,
    updated_at: datetime,
  },
  'notes_app.todolist': { user: owner, title: text(true), description: text(), shared_with: { kind: 'pks' }, created_at: datetime, updated_at: datetime },
  'notes_app.todoitem': {
    todo_list: { kind: 'pk', required: true },
    text: text(true),
    is_done: { kind: 'bool' },
    due_date: { kind: 'date', nullable: true },
    position: { kind: 'int' },
    created_at: datetime,
  },
  'notes_app.shoppinglist': {
    user: owner,
    title: text(true),
    store_name: text(),
    group: { kind: 'pk', nullable: true },
    shared_with: { kind: 'pks' },
    created_at: datetime,
    updated_at: datetime,
  },
  'notes_app.shopitem': {
    shopping_list: { kind: 'pk', required: true },
    name: text(true),
    quantity: { kind: 'decimal' },
    unit: text(),
    estimated_price: { kind: 'decimal', nullable: true },
    is_bought: { kind: 'bool' },
    created_at: datetime,
  },
  'notes_app.chatmessage': { group: { kind: 'pk', required: true }, author: { kind: 'pk', required: true }, content: text(true), timestamp: { kind: 'datetime', required: true } },
  'notes_app.reminder': { note: { kind: 'pk', required: true }, remind_at: { kind: 'datetime', required: true }, message: text(), repeat: text(), is_sent: { kind: 'bool' } },
} satisfies Record<string, Record<string, FieldSpec>>;

export type ModelName = keyof typeof MODELS;

export type Value = string | number | boolean | number[] | null | undefined;

export interface Entry {
  /** 1-based position in the file's list. */
  index: number;
  model: ModelName;
  pk: number;
  /** Known fields only, checked for type; absent ones are undefined. */
  fields: Record<string, Value>;
}

export interface ParsedDump {
  entries: Entry[];
  total: number;
  /** Entries of models not imported, by model. */
  otherModels: Map<string, number>;
  /** `model.field` -> how many entries carried a field not known here. */
  unknownFields: Map<string, number>;
  /** Datetimes written without a zone (read as UTC). */
  zonelessDatetimes: number;
}

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** ISO 8601 -> epoch ms; without a zone the time is UTC. Null when it is not a real date and time. */
export function parseDatetime(raw: string): { ms: number; zoned: boolean } | null {
  const match = ISO_DATETIME.exec(raw.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i]));
  const second = Number(match[6] ?? '0');
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  if (month! < 1 || month! > 12 || day! < 1 || day! > new Date(Date.UTC(year!, month!, 0)).getUTCDate()) return null;
  if (hour! > 23 || minute! > 59 || second > 59) return null;
  let offsetMinutes = 0;
  const zone = match[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const [, sign, hours, minutes] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    if (Number(hours) > 23 || Number(minutes ?? '0') > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes ?? '0'));
  }
  // Not Date.UTC alone: it reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour!, minute!, second, millis);
  const ms = date.getTime() - offsetMinutes * 60_000;
  return { ms, zoned: zone !== undefined };
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

const isPk = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID;

/**
 * Where a JSON text stops being valid, as "after entry N": the number of top-level list
 * entries begun before `position`. A small scan of strings and brackets, only run on failure.
 */
function entryAt(source: string, position: number): number {
  let depth = 0;
  let entries = 0;
  let inString = false;
  for (let i = 0; i < Math.min(position, source.length); i += 1) {
    const c = source[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (depth === 1) entries += 1;
      depth += 1;
    } else if (c === ']' || c === '}') depth -= 1;
  }
  return entries;
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const position = at ? Number(at[1]) : source.length;
    const entry = entryAt(source, position);
    const where = entry === 0 ? 'before the first entry' : `in entry ${entry}`;
    const truncated = position >= source.trimEnd().length;
    throw new BadDump(`not valid JSON ${where}${truncated ? ' (the file looks truncated)' : ''}: ${message.split('\n')[0]}`);
  }
}

function checkField(name: string, spec: FieldSpec, value: unknown, counters: { zoneless: number }): Value {
  const want = (what: string) => new BadDump(`field "${name}" must be ${what} (got ${typeOf(value)})`);
  if (value === undefined || (value === null && !spec.nullable)) {
    if (spec.required) throw new BadDump(`field "${name}" is missing`);
    return undefined;
  }
  if (value === null) return null;
  switch (spec.kind) {
    case 'ignored':
      return undefined;
    case 'text':
      if (typeof value !== 'string') throw want('text');
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw want('a whole number');
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw want('true or false');
      return value;
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string') throw want('a decimal number');
      return value.trim();
    case 'pk':
      if (!isPk(value)) throw want(`an id from 1 to ${MAX_ID}`);
      return value;
    case 'pks':
      if (!Array.isArray(value) || !value.every(isPk)) throw want('a list of ids');
      return value as number[];
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw want('a date as YYYY-MM-DD');
      return value;
    case 'datetime': {
      const parsed = typeof value === 'string' ? parseDatetime(value) : null;
      if (!parsed) throw want('an ISO 8601 date and time');
      if (!parsed.zoned) counters.zoneless += 1;
      return parsed.ms;
    }
  }
}

/** The dump's entries, checked for shape and types. Throws BadDump naming where the file is wrong. */
export function parseDump(source: string): ParsedDump {
  const data = parseJson(source);
  if (!Array.isArray(data)) throw new BadDump(`expected a list of {"model", "pk", "fields"} entries (got ${typeOf(data)})`);
  const entries: Entry[] = [];
  const otherModels = new Map<string, number>();
  const unknownFields = new Map<string, number>();
  const seen = new Map<string, number>();
  const counters = { zoneless: 0 };
  data.forEach((raw: unknown, i) => {
    const index = i + 1;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new BadDump(`entry ${index}: expected an object with "model", "pk" and "fields" (got ${typeOf(raw)})`);
    const { model, pk, fields } = raw as Record<string, unknown>;
    if (typeof model !== 'string' || model === '') throw new BadDump(`entry ${index}: "model" must be text like "notes_app.note" (got ${typeOf(model)})`);
    const specs = (MODELS as Record<string, Record<string, FieldSpec>>)[model];
    if (!specs) {
      otherModels.set(model, (otherModels.get(model) ?? 0) + 1);
      return;
    }
    const where = `entry ${index} (${model}${isPk(pk) ? ` pk ${pk}` : ''})`;
    if (!isPk(pk)) throw new BadDump(`${where}: "pk" must be an id from 1 to ${MAX_ID} (got ${JSON.stringify(pk) ?? 'nothing'})`);
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new BadDump(`${where}: "fields" must be an object (got ${typeOf(fields)})`);
    const first = seen.get(`${model}#${pk}`);
    if (first !== undefined) throw new BadDump(`${where}: the same pk as entry ${first}`);
    seen.set(`${model}#${pk}`, index);
    const checked: Record<string, Value> = {};
    for (const [name, spec] of Object.entries(specs)) {
      try {
        checked[name] = checkField(name, spec, (fields as Record<string, unknown>)[name], counters);
      } catch (error) {
        if (error instanceof BadDump) throw new BadDump(`${where}: ${error.message}`);
        throw error;
      }
    }
    for (const name of Object.keys(fields)) {
      if (!(name in specs)) unknownFields.set(`${model}.${name}`, (unknownFields.get(`${model}.${name}`) ?? 0) + 1);
    }
    entries.push({ index, model: model as ModelName, pk, fields: checked });
  });
  return { entries, total: data.length, otherModels, unknownFields, zonelessDatetimes: counters.zoneless };
}
