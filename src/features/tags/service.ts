import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Tag } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors } from '../../platform/forms.js';
import type { TagForm } from './forms.js';
import { TagsRepository } from './repository.js';

export type TagOutcome = { ok: true; tag: Tag | null } | { ok: false; errors: FormErrors };

const NAME_TAKEN: TagOutcome = { ok: false, errors: { name: ['tag_form.name_taken'] } };

export class TagsService {
  readonly tags: TagsRepository;

  constructor(db: Kysely<Database>) {
    this.tags = new TagsRepository(db);
  }

  async ownedOr404(ownerId: number, id: number): Promise<Tag> {
    const tag = await this.tags.findOwned(ownerId, id);
    if (!tag) throw new NotFound();
    return tag;
  }

  async create(ownerId: number, form: TagForm): Promise<TagOutcome> {
    if (await this.tags.nameTaken(ownerId, form.name)) return NAME_TAKEN;
    return this.uniquely(async () => this.tags.insert(ownerId, form));
  }

  async update(ownerId: number, id: number, form: TagForm): Promise<TagOutcome> {
    await this.ownedOr404(ownerId, id);
    if (await this.tags.nameTaken(ownerId, form.name, id)) return NAME_TAKEN;
    return this.uniquely(async () => {
      if (!(await this.tags.updateOwned(ownerId, id, form))) throw new NotFound();
      return null;
    });
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await this.tags.deleteOwned(ownerId, id))) throw new NotFound();
  }

  /** Two saves of one name at once: the unique index decides, and the loser gets the form error. */
  private async uniquely(write: () => Promise<Tag | null>): Promise<TagOutcome> {
    try {
      return { ok: true, tag: await write() };
    } catch (error) {
      if (isUniqueViolation(error)) return NAME_TAKEN;
      throw error;
    }
  }
}
