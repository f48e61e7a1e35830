import { type AliasableExpression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { isOneOf } from '../../db/id-lists.js';
import type { Dialect } from '../../db/database.js';
import type { Database, Note } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors } from '../../platform/forms.js';
import { GroupsRepository } from '../groups/index.js';
import { NotebooksRepository } from '../notebooks/index.js';
import { TagsRepository } from '../tags/index.js';
import type { NoteForm } from './forms.js';
import { INVALID_CHOICE } from '../../platform/ids.js';
import { type ActivityEvent, groupShareNotice, recordActivity } from '../groups/index.js';
import type { Notifier } from '../../services.js';
import { type NoteFields, NotesRepository } from './repository.js';
import { toggleOwnedFlag } from './note-flags.js';
import { ownedBy } from './visibility.js';

export type SaveOutcome = { ok: true; id: number } | { ok: false; errors: FormErrors };

export class NotesService {
  readonly notes: NotesRepository;
  readonly notebooks: NotebooksRepository;
  readonly tags: TagsRepository;
  readonly groups: GroupsRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** Tells a group's members of a note put into it; none, nobody is told. */
    private readonly notifications: Notifier | null = null,
    /** Runs what is told to open pages once the change has committed: at once, or after the caller's transaction (the API's If-Match). */
    private readonly afterCommit: (work: () => void) => void = (work) => work(),
  ) {
    this.notes = new NotesRepository(db, dialect);
    this.notebooks = new NotebooksRepository(db);
    this.tags = new TagsRepository(db);
    this.groups = new GroupsRepository(db);
  }

  /** What the note form offers: only the caller's notebooks, tags and groups. */
  async formChoices(userId: number) {
    const [notebooks, tags, groups] = await Promise.all([
      this.notebooks.listChoices(userId),
      this.tags.listOwned(userId),
      this.groups.listForMember(userId),
    ]);
    return { notebooks, tags, groups };
  }

  async ownedOr404(userId: number, id: number): Promise<Note> {
    const note = await this.notes.findOwnedNote(userId, id);
    if (!note) throw new NotFound();
    return note;
  }

  async create(userId: number, form: NoteForm): Promise<SaveOutcome> {
    const errors = await this.linkErrorsOf(userId, form);
    if (errors) return { ok: false, errors };
    const { id, told } = await this.db.transaction().execute(async (trx) => {
      const created = await new NotesRepository(trx, this.dialect).insert(userId, fields(form), form.tags);
      if (form.group === null) return { id: created, told: [] };
      await recordActivity(trx, sharedInto(form.group, userId, created));
      if (!this.notifications) return { id: created, told: [] };
      const { recipients, notification } = groupShareNotice(trx, { groupId: form.group, actorId: userId, object: { kind: 'note', title: sql.val(form.title), path: `/notes/${created}/` } });
      return { id: created, told: await this.notifications.addMerging(trx, recipients, notification) };
    });
    this.announce(told);
    return { ok: true, id };
  }

  /**
   * The caller's note changed; a note they do not own is a 404 whatever the form holds (checked
   * with the form's choices). Put into a group, its sharing is recorded once and the group's other
   * members are told (nobody, when it leaves its group). The checks go with
   * the change, which changes nothing unless they pass: on PostgreSQL in its statement (one round
   * trip instead of two), on SQLite in its transaction.
   */
  async update(userId: number, id: number, form: NoteForm): Promise<SaveOutcome> {
    const shared = form.group === null ? undefined : sharedInto(form.group, userId, id);
    const { checked, saved, told } = await this.notes.updateOwned(this.linkChecks(userId, form, id), userId, id, fields(form), form.tags, shared, Date.now(), this.notifications ?? undefined);
    const errors = linkErrors(checked, form, id);
    if (errors) return { ok: false, errors };
    if (!saved) throw new NotFound();
    this.announce(told);
    return { ok: true, id };
  }

  /** Tells the open pages of those just notified, after the commit. */
  private announce(userIds: number[]): void {
    const notifications = this.notifications;
    if (notifications && userIds.length > 0) this.afterCommit(() => notifications.announce(userIds));
  }

  async delete(userId: number, id: number): Promise<void> {
    if (!(await this.notes.deleteOwned(userId, id))) throw new NotFound();
  }

  async togglePin(userId: number, id: number): Promise<void> {
    if ((await toggleOwnedFlag(this.db, 'is_pinned', userId, id)) === undefined) throw new NotFound();
  }

  /** Flips the note's archived state; true when it is now archived. */
  async toggleArchive(userId: number, id: number): Promise<boolean> {
    const archived = await toggleOwnedFlag(this.db, 'is_archived', userId, id);
    if (archived === undefined) throw new NotFound();
    return archived;
  }

  /**
   * A note links only to the caller's own notebook and tags, and to a group the caller is in.
   * Anything else is refused as an invalid choice, in the same words whether the object exists or
   * not, so the form cannot be used to probe other users' ids. With `noteId`, the note must be the
   * caller's too. One row whatever the form holds: each check is a subquery, a choice left empty
   * is not asked about (null), and `passed` says whether all held.
   */
  private linkChecks(userId: number, form: NoteForm, noteId?: number) {
    const db = this.db;
    const asked = <T>(needed: boolean, check: () => AliasableExpression<T>, type: 'boolean' | 'integer') => (needed ? check() : sql<T>`cast(null as ${sql.raw(type)})`);
    const found = (query: SelectQueryBuilder<Database, keyof Database, object>) => sql<SqlBool>`exists ${query.select(sql.lit(1).as('found'))}`;
    const checks = db
      .selectNoFrom([
        asked(noteId !== undefined, () => found(db.selectFrom('notes').where('notes.id', '=', noteId!).where(ownedBy(userId))), 'boolean').as('note'),
        asked(form.notebook !== null, () => found(db.selectFrom('notebooks').where('notebooks.id', '=', form.notebook!).where('notebooks.owner_id', '=', userId)), 'boolean').as('notebook'),
        asked(form.tags.length > 0, () => db.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).where('tags.owner_id', '=', userId).where((eb) => isOneOf(db, eb.ref('tags.id'), form.tags)).$asScalar(), 'integer').as('tags'),
        asked(form.group !== null, () => found(this.groups.memberGroupIds(userId).where('group_members.group_id', '=', form.group!)), 'boolean').as('group'),
      ])
      .as('checks');
    return db
      .selectFrom(checks)
      .selectAll()
      .select(sql<SqlBool>`(note is null or note) and (notebook is null or notebook) and (tags is null or tags = ${form.tags.length}) and ("group" is null or "group")`.as('passed'));
  }

  private async linkErrorsOf(userId: number, form: NoteForm): Promise<FormErrors | null> {
    return linkErrors(await this.linkChecks(userId, form).executeTakeFirstOrThrow(), form);
  }
}

/** The answers of NotesService.linkChecks. */
interface LinkChecks {
  note: unknown;
  notebook: unknown;
  tags: unknown;
  group: unknown;
}

/** The form's errors from its checks; NotFound first when `noteId`'s note is not the caller's. */
function linkErrors(row: LinkChecks, form: NoteForm, noteId?: number): FormErrors | null {
  if (noteId !== undefined && !truthy(row.note)) throw new NotFound();
  const errors: FormErrors = {};
  if (form.notebook !== null && !truthy(row.notebook)) errors.notebook = [INVALID_CHOICE];
  if (form.tags.length > 0 && Number(row.tags) !== form.tags.length) errors.tags = [INVALID_CHOICE];
  if (form.group !== null && !truthy(row.group)) errors.group = [INVALID_CHOICE];
  return Object.keys(errors).length > 0 ? errors : null;
}

/** An EXISTS as either database returns it: true or false on PostgreSQL, 1 or 0 on SQLite. */
const truthy = (value: unknown) => value === true || Number(value) === 1;

/** The group activity event of a note put into a group. */
function sharedInto(groupId: number, ownerId: number, noteId: number): ActivityEvent {
  return { groupId, kind: 'note.shared', actorId: ownerId, object: { kind: 'note', id: noteId } };
}

function fields(form: NoteForm): NoteFields {
  return {
    title: form.title,
    content: form.content,
    notebook_id: form.notebook,
    group_id: form.group,
    priority: form.priority,
    is_pinned: form.is_pinned,
    is_archived: form.is_archived,
  };
}
