import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestApp, buildTestApp, createUser } from '../../test/helpers.js';
import { groupCommands } from './group-commands.js';
import { CliError } from './io.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

function run(name: 'creategroup' | 'addmember', args: string[], options: Record<string, string> = {}) {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  return groupCommands[name]!.run({ config: t.config, args, options });
}

const groupNamed = (name: string) => t.db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
const membersOf = async (groupId: number) =>
  (await t.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).execute()).map((row) => row.user_id).sort((a, b) => a - b);

describe('creategroup', () => {
  it('creates the group with its owner as first member', async () => {
    const owner = await createUser(t.db);
    await run('creategroup', ['Climbers'], { owner: owner.username });
    const group = await groupNamed('Climbers');
    expect(group?.owner_id).toBe(owner.id);
    expect(await membersOf(group!.id)).toEqual([owner.id]);
  });

  it('fails with one clear line for an unknown owner, a missing --owner or a taken name, writing nothing', async () => {
    const owner = await createUser(t.db);
    await expect(run('creategroup', ['Sailors'], { owner: 'nobody-here' })).rejects.toThrow(new CliError('no user named "nobody-here"'));
    await expect(run('creategroup', ['Sailors'])).rejects.toThrow('creategroup needs --owner <username>');
    expect(await groupNamed('Sailors')).toBeUndefined();
    await run('creategroup', ['Sailors'], { owner: owner.username });
    await expect(run('creategroup', ['SAILORS'], { owner: owner.username })).rejects.toThrow('A group with that name already exists.');
    expect(await groupNamed('SAILORS')).toBeUndefined();
  });
});

describe('addmember', () => {
  it('adds a user to a group named in any case, once', async () => {
    const owner = await createUser(t.db);
    const newcomer = await createUser(t.db);
    await run('creategroup', ['Runners'], { owner: owner.username });
    await run('addmember', ['runners', newcomer.username]);
    const group = (await groupNamed('Runners'))!;
    expect(await membersOf(group.id)).toEqual([owner.id, newcomer.id].sort((a, b) => a - b));
    await expect(run('addmember', ['Runners', newcomer.username])).rejects.toThrow('is already a member of this group.');
    await expect(run('addmember', ['No such group', newcomer.username])).rejects.toThrow('no group named "No such group"');
    await expect(run('addmember', ['Runners', 'ghost-user'])).rejects.toThrow('There is no user named “ghost-user”.');
    expect(await membersOf(group.id)).toHaveLength(2);
  });
});
