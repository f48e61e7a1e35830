import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FormErrors } from '../../platform/forms.js';
import { GroupsRepository } from '../groups/index.js';

// A list's group, for the kinds with groups (both): the owner chooses one of their own groups
// on the list's form (or none), and its members read the list, or tick it too (access.ts).

/** The checks of a kind whose list input names its group (`group`: an id, or null for none). */
export const groupChecks = {
  /** The list's group is one the owner belongs to, or none. */
  async list(db: Kysely<Database>, userId: number, input: { group: number | null }): Promise<FormErrors | null> {
    if (input.group === null || (await new GroupsRepository(db).isMember(input.group, userId))) return null;
    return { group: ['lists.choose_group'] };
  },
  groupOf: (input: { group: number | null }) => input.group,
};
