import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { Notebook, Tag } from '../../db/schema.js';
import type { Translator } from '../../platform/i18n/index.js';
import { dateTimeIn } from '../../platform/time-zones.js';
import { formatMoney, showQuantity } from '../lists/index.js';
import type { ExportNote, ExportShoppingList, ExportTodoList } from './export-repository.js';

const PRIORITY_NAMES = ['low', 'medium', 'high', 'urgent'] as const;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const iso = (ms: number) => new Date(Number(ms)).toISOString();

function withFrontMatter(fields: Record<string, unknown>, body: string): string {
  return `---\n${stringifyYaml(fields, { lineWidth: 0 })}---\n\n${body}`;
}

/** A note as a Markdown file: YAML front matter, then its content exactly as stored. */
export function noteMarkdown(note: ExportNote, notebooks: Map<number, Notebook>, tags: Map<number, Tag>, groups: Map<number, string>): string {
  const fields: Record<string, unknown> = {
    title: note.title,
    tags: note.tag_ids.map((id) => tags.get(id)?.name).filter((name) => name !== undefined),
    notebook: note.notebook_id === null ? null : (notebooks.get(note.notebook_id)?.title ?? null),
    created: iso(note.created_at),
    updated: iso(note.updated_at),
    pinned: note.is_pinned === 1,
    priority: PRIORITY_NAMES[note.priority] ?? 'low',
    archived: note.is_archived === 1,
  };
  if (note.group_id !== null && groups.has(note.group_id)) fields.group = groups.get(note.group_id);
  // For the reader: an import restores reminders from groupnotes.json.
  if (note.reminders.length > 0) {
    fields.reminders = note.reminders.map(({ local_time, time_zone, repeat, message }) => ({ at: local_time, time_zone, repeat, ...(message ? { message } : {}) }));
  }
  return withFrontMatter(fields, note.content);
}

const checkbox = (done: number, text: string, notes: string[]) => `- [${done === 1 ? 'x' : ' '}] ${text.replace(/\r?\n/g, ' ')}${notes.length ? ` (${notes.join(' · ')})` : ''}`;

/** How the lists' files are written for their owner: in their language (a shopping list's prices in its own currency). */
export interface ListWords {
  t: Translator['t'];
  language: string;
}

function todoLine(item: ExportTodoList['items'][number], words: ListWords): string {
  const notes = [
    item.due_date ? words.t('export.due', { date: item.due_date }) : null,
    item.assignee_name ? words.t('export.assigned_to', { name: item.assignee_name }) : null,
    item.is_done === 1 && item.done_by_name ? words.t('export.done_by', { name: item.done_by_name }) : null,
  ];
  return checkbox(item.is_done, item.text, notes.filter((note) => note !== null));
}

function shoppingLine(item: ExportShoppingList['items'][number], currency: string, words: ListWords): string {
  const amount = item.quantity_milli === 1000 && !item.unit ? null : `${showQuantity(item.quantity_milli, words.language)}${item.unit ? ` ${item.unit}` : ''}`;
  const price = item.estimated_price_cents === null ? null : words.t('export.price_each', { price: formatMoney(item.estimated_price_cents, currency, words.language) });
  const buyer = item.is_done === 1 && item.done_by_name ? words.t('export.bought_by', { name: item.done_by_name }) : null;
  return checkbox(item.is_done, item.name, [amount, price, buyer].filter((note) => note !== null));
}

export function todoListMarkdown(list: ExportTodoList, groups: Map<number, string>, words: ListWords): string {
  const fields: Record<string, unknown> = { title: list.title, kind: 'todo', created: iso(list.created_at), updated: iso(list.updated_at) };
  if (list.group_id !== null && groups.has(list.group_id)) fields.group = groups.get(list.group_id);
  const intro = list.description ? `${list.description}\n\n` : '';
  return withFrontMatter(fields, `# ${list.title}\n\n${intro}${list.items.map((item) => todoLine(item, words)).join('\n')}\n`);
}

export function shoppingListMarkdown(list: ExportShoppingList, groups: Map<number, string>, words: ListWords): string {
  const fields: Record<string, unknown> = { title: list.title, kind: 'shopping', store: list.store_name || null, created: iso(list.created_at), updated: iso(list.updated_at) };
  if (list.group_id !== null && groups.has(list.group_id)) fields.group = groups.get(list.group_id);
  return withFrontMatter(fields, `# ${list.title}\n\n${list.items.map((item) => shoppingLine(item, list.currency, words)).join('\n')}\n`);
}

/** One of the user's own chat messages as a Markdown list item: when (in their zone), then the text, its lines kept. */
export function chatLine(message: { content: string; created_at: number }, timeZone: string, language: string): string {
  return `- ${dateTimeIn(timeZone, message.created_at, language)}: ${message.content.replace(/\r?\n/g, '\n  ')}`;
}

/** What a Markdown file from another notes app says about itself; every field may be absent. */
export interface MarkdownNote {
  title: string;
  content: string;
  tags: string[];
  notebook: string | null;
  created: number | null;
  updated: number | null;
  pinned: boolean;
  archived: boolean;
  priority: number;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  return null;
}

function time(value: unknown): number | null {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(ms) && ms >= 0 && ms < 8.64e15 ? Math.trunc(ms) : null;
}

function priority(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 3) return value;
  const index = PRIORITY_NAMES.indexOf(String(value).trim().toLowerCase() as (typeof PRIORITY_NAMES)[number]);
  return Math.max(index, 0);
}

function tagList(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return raw.map(text).filter((name): name is string => name !== null);
}

/**
 * Reads one Markdown file: the front matter (if any, and if it is a YAML mapping) gives title,
 * tags, notebook, times and flags; the title is otherwise the first `# heading`, else the file's
 * name. Front matter that is not valid YAML throws (the caller names the file).
 */
export function parseMarkdownNote(source: string, fileName: string): MarkdownNote {
  const match = FRONT_MATTER.exec(source);
  // Aliases are refused outright: a few of them nested are the YAML "billion laughs".
  const parsed: unknown = match ? parseYaml(match[1]!, { maxAliasCount: 0 }) : null;
  const fields = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  const content = (match ? source.slice(match[0].length).replace(/^\r?\n/, '') : source).replace(/\r\n?/g, '\n');
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(content)?.[1]?.trim();
  return {
    title: text(fields.title) ?? heading ?? fileName.replace(/\.md$/i, ''),
    content,
    tags: tagList(fields.tags),
    notebook: text(fields.notebook),
    created: time(fields.created),
    updated: time(fields.updated),
    pinned: fields.pinned === true,
    archived: fields.archived === true,
    priority: priority(fields.priority),
  };
}
