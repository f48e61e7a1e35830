import { identityKey, identityKeyProblem } from '../../platform/identity-key.js';
import { username as usernameSchema, usernameSkeleton } from '../accounts/index.js';
import { type Planning, bool, ms, pks, quote, str, textProblem } from './plan-context.js';

/** Users: a valid username, one per folded name and one per look (the lowest pk kept). */
export function planUsers(p: Planning): void {
  const { each, rows, notices, now, users } = p;
  const keys = new Map<string, { pk: number; username: string }>();
  const skeletons = new Map<string, { pk: number; username: string }>();
  const superusers: string[] = [];
  const unusable: string[] = [];
  each(
    'auth.user',
    (entry) => quote(str(entry.fields.username)),
    ({ pk, fields }) => {
      const parsed = usernameSchema.safeParse(fields.username);
      if (!parsed.success) return `not a valid username here: ${parsed.error.issues[0]!.message}`;
      const username = parsed.data;
      const key = identityKey(username);
      const taken = keys.get(key);
      if (taken) return `the same username as ${quote(taken.username)} (pk ${taken.pk}) once letter case is folded; the lower pk is kept`;
      const skeleton = usernameSkeleton(username);
      const lookalike = skeletons.get(skeleton);
      if (lookalike) return `a username that looks like ${quote(lookalike.username)} (pk ${lookalike.pk}); the lower pk is kept`;
      const email = str(fields.email).trim();
      if (email.length > 254) return 'the email address is longer than 254 characters';
      const password = str(fields.password);
      if (password.length > 255) return 'the password hash is longer than 255 characters';
      keys.set(key, { pk, username });
      skeletons.set(skeleton, { pk, username });
      const joined = ms(fields.date_joined, now);
      users.set(pk, { username, joined, groups: pks(fields.groups) });
      if (fields.is_superuser === true) superusers.push(username);
      if (!password.startsWith('pbkdf2_sha256$')) unusable.push(username);
      rows.users.push({
        id: pk,
        username,
        username_key: key,
        username_skeleton: skeleton,
        email,
        password,
        is_active: bool(fields.is_active, true),
        date_joined: joined,
        last_login: typeof fields.last_login === 'number' ? fields.last_login : null,
      });
      return null;
    },
  );
  if (superusers.length > 0) notices.push(`Django superusers, not made administrators here (use groupnotes promote): ${superusers.join(', ')}`);
  if (unusable.length > 0) notices.push(`password hashes other than pbkdf2_sha256, kept but unusable here (use groupnotes changepassword): ${unusable.join(', ')}`);
}

/** Groups: members are the kept users naming them; the owner is the earliest member. */
export function planGroups(p: Planning): void {
  const { each, rows, notices, users, groups, byModel } = p;
  const groupPks = new Set(byModel.get('auth.group')!.map((entry) => entry.pk));
  const membersOf = new Map<number, number[]>();
  for (const [userPk, user] of users) {
    for (const groupPk of user.groups) {
      if (!groupPks.has(groupPk)) notices.push(`membership of user ${user.username} in group pk ${groupPk} dropped: no such group in the file`);
      else membersOf.set(groupPk, [...(membersOf.get(groupPk) ?? []), userPk]);
    }
  }
  const groupKeys = new Set<string>();
  each(
    'auth.group',
    (entry) => quote(str(entry.fields.name)),
    ({ pk, fields }) => {
      const name = str(fields.name).trim();
      const problem = textProblem('the name', name, 150) ?? (identityKeyProblem(name) ? 'the name shows no letter or is too long once folded' : null);
      if (problem) return problem;
      const members = (membersOf.get(pk) ?? []).sort((a, b) => users.get(a)!.joined - users.get(b)!.joined || a - b);
      const ownerPk = members[0];
      if (ownerPk === undefined) return 'no imported user is a member, so no one can own it';
      const owner = users.get(ownerPk)!;
      const key = identityKey(name);
      if (groupKeys.has(`${ownerPk} ${key}`)) return `its owner ${owner.username} already has a group of that name`;
      groupKeys.add(`${ownerPk} ${key}`);
      const created = owner.joined;
      groups.set(pk, new Set(members));
      rows.groups.push({ id: pk, name, name_key: key, owner_id: ownerPk, created_at: created });
      for (const member of members) rows.group_members.push({ group_id: pk, user_id: member, joined_at: Math.max(created, users.get(member)!.joined) });
      notices.push(`group ${quote(name)} (pk ${pk}): owner ${owner.username}, its earliest member (Django groups have no owner)`);
      return null;
    },
  );
  for (const [groupPk, members] of membersOf) {
    if (!groups.has(groupPk)) for (const member of members) notices.push(`membership of user ${users.get(member)!.username} in group pk ${groupPk} dropped: the group is left out`);
  }
}
