import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createNote, createUser, loggedIn, type TestApp } from '../../test/index.js';
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
    await expect(run('creategroup', ['SAILORS'], { owner: owner.username })).rejects.toThrow('You already have a group with that name.');
    expect(await groupNamed('SAILORS')).toBeUndefined();
  });

  it('lets two owners each have a group of the same name', async () => {
    const [first, second] = [await createUser(t.db), await createUser(t.db)];
    await run('creategroup', ['Hikers'], { owner: first.username });
    await run('creategroup', ['hikers'], { owner: second.username });
    const owners = await t.db.selectFrom('groups').select('owner_id').where('owner_id', 'in', [first.id, second.id]).orderBy('owner_id').execute();
    expect(owners.map((row) => row.owner_id)).toEqual([first.id, second.id]);
  });
});

describe('addmember', () => {
  it('notifies the new member once, linking to the group; adding them again tells nobody', async () => {
    const owner = await createUser(t.db);
    const newcomer = await createUser(t.db);
    await run('creategroup', ['Rowers'], { owner: owner.username });
    const group = (await groupNamed('Rowers'))!;
    await run('addmember', [String(group.id), newcomer.username]);
    await expect(run('addmember', [String(group.id), newcomer.username])).rejects.toThrow(CliError);
    const rows = await t.db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', newcomer.id).execute();
    expect(rows).toEqual([{ kind: 'group.added', text: 'You were added to the group Rowers', link: `/groups/${group.id}/` }]);
  });

  it('shows the group’s notes to the new member at their next request, though their list was kept', async () => {
    const owner = await createUser(t.db);
    const { user: newcomer, browser } = await loggedIn(t);
    await run('creategroup', ['Walkers'], { owner: owner.username });
    const group = (await groupNamed('Walkers'))!;
    await createNote(t.db, owner, { title: 'Sunday route', group_id: group.id });
    expect((await browser.get('/notes/')).body).not.toContain('Sunday route');
    await run('addmember', [`${owner.username}/Walkers`, newcomer.username]);
    expect((await browser.get('/notes/')).body).toContain('Sunday route');
  });

  it('adds a user to a group named by owner/name in any case, once', async () => {
    const owner = await createUser(t.db);
    const newcomer = await createUser(t.db);
    await run('creategroup', ['Runners'], { owner: owner.username });
    await run('addmember', [`${owner.username.toUpperCase()}/runners`, newcomer.username]);
    const group = (await groupNamed('Runners'))!;
    expect(await membersOf(group.id)).toEqual([owner.id, newcomer.id].sort((a, b) => a - b));
    await expect(run('addmember', [`${owner.username}/Runners`, newcomer.username])).rejects.toThrow('is already a member of this group.');
    await expect(run('addmember', [`${owner.username}/Runners`, 'ghost-user'])).rejects.toThrow('There is no user named “ghost-user”.');
    expect(await membersOf(group.id)).toHaveLength(2);
  });

  it('adds a user to a group named by its id', async () => {
    const owner = await createUser(t.db);
    const newcomer = await createUser(t.db);
    await run('creategroup', ['Swimmers'], { owner: owner.username });
    const group = (await groupNamed('Swimmers'))!;
    await run('addmember', [String(group.id), newcomer.username]);
    expect(await membersOf(group.id)).toEqual([owner.id, newcomer.id].sort((a, b) => a - b));
  });

  it('refuses an unknown, malformed or ambiguous group with one line, adding nobody', async () => {
    const [first, second, newcomer] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    await run('creategroup', ['Cyclists'], { owner: first.username });
    await run('creategroup', ['cyclists'], { owner: second.username });
    const cases: [string, string][] = [
      [`${first.username}/No such group`, `${first.username} has no group named "No such group"`],
      ['nobody-here/Cyclists', 'no user named "nobody-here"'],
      ['99999999999', 'no group with id 99999999999'],
      ['2147483647', 'no group with id 2147483647'],
      ['No such group', 'no group named "No such group"; name it as <owner>/<name> or by its id'],
      ['Cyclists', `group name "Cyclists" is ambiguous (owned by ${[first.username, second.username].sort().join(', ')}); name it as <owner>/<name> or by its id`],
      ['/Cyclists', 'name the group by its id or as <owner>/<name>'],
      [`${first.username}/`, 'name the group by its id or as <owner>/<name>'],
    ];
    for (const [group, message] of cases) {
      const failure = run('addmember', [group, newcomer.username]);
      await expect(failure, group).rejects.toThrow(new CliError(message));
      await expect(failure).rejects.not.toThrow(/\n/);
    }
    const memberships = await t.db.selectFrom('group_members').select('group_id').where('user_id', '=', newcomer.id).execute();
    expect(memberships).toEqual([]);
  });

  it('still takes a bare group name that only one owner uses', async () => {
    const owner = await createUser(t.db);
    const newcomer = await createUser(t.db);
    await run('creategroup', ['Rowers of Ålesund'], { owner: owner.username });
    await run('addmember', ['ROWERS OF ÅLESUND', newcomer.username]);
    const group = (await groupNamed('Rowers of Ålesund'))!;
    expect(await membersOf(group.id)).toContain(newcomer.id);
  });
});
