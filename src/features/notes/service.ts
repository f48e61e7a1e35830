import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database, Note } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors } from '../../platform/views/forms.js';
import { GroupsRepository } from '../groups/repository.js';
import { NotebooksRepository } from '../notebooks/repository.js';
import { TagsRepository } from '../tags/repository.js';
import type { NoteForm } from './forms.js';
import { INVALID_CHOICE } from '../../platform/ids.js';
import { type ActivityEvent, recordActivity } from '../../platform/activity.js';
import { type NoteFields, NotesRepository } from './repository.js';
import { toggleOwnedFlag } from './note-flags.js';

export type SaveOutcome = { ok: true; id: number } | { ok: false; errors: FormErrors };

export class NotesService {
  readonly notes: NotesRepository;
  readonly notebooks: NotebooksRepository;
  readonly tags: TagsRepository;
  readonly groups: GroupsRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
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
    const errors = await this.linkErrors(userId, form);
    if (errors) return { ok: false, errors };
    const id = await this.db.transaction().execute(async (trx) => {
      const created = await new NotesRepository(trx, this.dialect).insert(userId, fields(form), form.tags);
      if (form.group !== null) await recordActivity(trx, sharedInto(form.group, userId, created));
      return created;
    });
    return { ok: true, id };
  }

  /** The caller's note changed; a note they do not own is a 404 (updateOwned is scoped to them). */
  async update(userId: number, id: number, form: NoteForm): Promise<SaveOutcome> {
    const errors = await this.linkErrors(userId, form);
    if (errors) return { ok: false, errors };
    const group = form.group;
    // A note kept out of groups is one statement, as before; one put into a group also reads
    // which group it was in, to record its sharing (once) in the same transaction.
    const updated = group === null
      ? await this.notes.updateOwned(userId, id, fields(form), form.tags)
      : await this.inTransaction(async (notes, trx) => {
        const before = await notes.findOwnedNote(userId, id);
        if (!before || !(await notes.updateOwned(userId, id, fields(form), form.tags))) return false;
        if (before.group_id !== group) await recordActivity(trx, sharedInto(group, userId, id));
        return true;
      });
    if (!updated) throw new NotFound();
    return { ok: true, id };
  }

  /** `work` in the caller's transaction when this service runs in one (the API's), else in a new one. */
  private inTransaction<T>(work: (notes: NotesRepository, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this.notes, this.db);
    return this.db.transaction().execute((trx) => work(new NotesRepository(trx, this.dialect), trx));
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
   * not, so the form cannot be used to probe other users' ids.
   */
  private async linkErrors(userId: number, form: NoteForm): Promise<FormErrors | null> {
    const errors: FormErrors = {};
    if (form.notebook !== null && !(await this.notebooks.findOwned(userId, form.notebook))) errors.notebook = [INVALID_CHOICE];
    if ((await this.tags.ownedIds(userId, form.tags)).length !== form.tags.length) errors.tags = [INVALID_CHOICE];
    if (form.group !== null && !(await this.groups.isMember(form.group, userId))) errors.group = [INVALID_CHOICE];
    return Object.keys(errors).length > 0 ? errors : null;
  }
}

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
