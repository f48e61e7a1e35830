import type { ModelName, ParsedDump } from './parse.js';
import { type ImportRows, type ModelReport, Planning } from './plan-context.js';
import { planLists, planChat, planNotebooksAndTags, planNotes, planReminders } from './plan-content.js';
import { planGroups, planUsers } from './plan-people.js';

export type { ImportRows, ModelReport } from './plan-context.js';

// What of a parsed dump this service can hold, decided before anything is written. An object
// that would break one of its rules is left out whole, with a reason, and so is everything that
// depends on it (a left-out user's notes, a left-out list's items): nothing is imported half-way.
// Per case:
// - users: the username must be valid here; of several that are one name once folded
//   (identity-key.ts), the lowest pk is kept and the others are left out;
// - groups: owned by their earliest member (date_joined, then pk); a group without members, or
//   whose name its owner already uses, is left out;
// - notes: left out when a tag or the notebook is missing or someone else's, or the group is not
//   imported; lists and chat messages: when the group is not imported. A note, list or message
//   whose owner or author is not (or no longer) a member of its group is kept, as it is here after
//   a member leaves a group (the report counts them);
// - access links only (memberships, shares) naming a user or group that is not imported are
//   dropped and reported: the object keeps less access, never more;
// - reminders (reminders.ts): on an imported note, for its owner; a one-off already sent is
//   counted, not imported; one past and unsent is left out; a repeating one in the past moves to
//   its next occurrence; beyond the per-note cap they are left out.

export interface ImportPlan {
  rows: ImportRows;
  models: Map<ModelName, ModelReport>;
  /** Things done that the reader should know: group owners chosen, links dropped. */
  notices: string[];
}

const MODEL_ORDER: ModelName[] = [
  'auth.user',
  'auth.group',
  'notes_app.notebook',
  'notes_app.tag',
  'notes_app.note',
  'notes_app.todolist',
  'notes_app.todoitem',
  'notes_app.shoppinglist',
  'notes_app.shopitem',
  'notes_app.chatmessage',
  'notes_app.reminder',
];

export function planImport(dump: ParsedDump, now = Date.now()): ImportPlan {
  const p = new Planning(dump.entries, MODEL_ORDER, now);
  // In this order: each stage checks its references against what the ones before it kept.
  planUsers(p);
  planGroups(p);
  planNotebooksAndTags(p);
  planNotes(p);
  planLists(p);
  planChat(p);
  planReminders(p);
  if (p.outsiders > 0) p.notices.push(`${p.outsiders} note(s), shopping list(s) or chat message(s) kept in a group their owner or author is not a member of (as after leaving a group here)`);
  return { rows: p.rows, models: p.models, notices: p.notices };
}
