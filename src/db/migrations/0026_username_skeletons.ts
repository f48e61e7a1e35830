import type { Kysely } from 'kysely';
import unhomoglyph from 'unhomoglyph';

// Usernames that look the same become one username: each user gets a skeleton (Unicode TR39,
// accounts/lookalikes.ts) stored beside the name in `username_skeleton`, under a unique index, so
// that a Cyrillic `аlice` or `асе` cannot register beside Latin `alice` or `ace`.
//
// Existing users whose names look alike are not renamed and the migration does not stop: their
// names were refused by no rule, each logs in as before, and stopping would keep every instance
// from upgrading. In id order the first keeps the skeleton; each later one is kept without one
// (null, which a unique index lets repeat) and named in a warning, for an administrator to
// rename. New registrations are refused against all of them (the repository compares the few
// users without a skeleton by their names).

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE_RUN = /\s+/gu;
const MAX_SKELETON_LENGTH = 600;

const prototypes = (text: string) => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/** A frozen copy of `usernameSkeleton` as it was when this migration was written: never edit it. */
export function skeletonOf(username: string): string {
  const shown = username.normalize('NFKC').replace(INVISIBLE, '').replace(WHITESPACE_RUN, ' ').trim();
  return prototypes(prototypes(shown).toLowerCase());
}

interface Holder {
  id: number;
  username: string;
}

/** Fills every user's skeleton; returns a phrase for each user kept without one. */
async function fillSkeletons(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const holders = new Map<string, Holder>();
  const kept: string[] = [];
  const shown = (user: Holder) => `${JSON.stringify(user.username)} (id ${user.id})`;
  for (const row of rows) {
    const user = { id: Number(row.id), username: String(row.username) };
    const skeleton = skeletonOf(user.username);
    const holder = holders.get(skeleton);
    if (holder) kept.push(`${shown(user)} looks like ${shown(holder)}`);
    else if (skeleton.length > MAX_SKELETON_LENGTH) kept.push(`${shown(user)} maps too long`);
    else {
      holders.set(skeleton, user);
      await db.updateTable('users').set({ username_skeleton: skeleton }).where('id', '=', user.id).execute();
    }
  }
  return kept;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_skeleton', `varchar(${MAX_SKELETON_LENGTH})`).execute();
  const kept = await fillSkeletons(db);
  await db.schema.createIndex('users_username_skeleton').on('users').unique().column('username_skeleton').execute();
  if (kept.length > 0) {
    console.warn(
      `0026_username_skeletons: ${kept.length} user(s) kept without a skeleton, as their names look like an older user's ` +
        `(or map too long to compare): they log in as before, and no new name that looks the same can register: ${kept.join('; ')}.`,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_username_skeleton').execute();
  await db.schema.alterTable('users').dropColumn('username_skeleton').execute();
}
