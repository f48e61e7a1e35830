import type { Kysely } from 'kysely';
import type { Database, Group } from '../db/schema.js';
import { UsersRepository } from '../features/accounts/index.js';
import { groupForm } from '../features/groups/index.js';
import { GroupsService } from '../features/groups/index.js';
import type { Config } from '../config.js';
import { publishFromOutside } from '../platform/hub/create.js';
import { parseId } from '../platform/ids.js';
import { Notifications } from '../features/notifications/index.js';
import { type Command, withDatabase } from './command.js';
import { CliError, firstError } from './io.js';

const NAME_IT = 'name it as <owner>/<name> or by its id';

/**
 * The `<group>` argument: an id, `owner/name` (group names are unique per owner only; a username
 * has no `/`, so the name may), or a bare name that only one owner uses. Names are quoted with
 * JSON.stringify so that the error stays on one line whatever they hold.
 */
async function findGroup(db: Kysely<Database>, service: GroupsService, raw: string): Promise<Group> {
  if (/^[0-9]+$/.test(raw)) {
    const id = parseId(raw);
    const group = id === null ? undefined : await service.groups.findById(id);
    if (!group) throw new CliError(`no group with id ${raw}`);
    return group;
  }
  const slash = raw.indexOf('/');
  if (slash >= 0) {
    const [ownerName, name] = [raw.slice(0, slash).trim(), raw.slice(slash + 1).trim()];
    if (!ownerName || !name) throw new CliError('name the group by its id or as <owner>/<name>');
    const owner = await new UsersRepository(db).findByUsername(ownerName);
    if (!owner) throw new CliError(`no user named ${JSON.stringify(ownerName)}`);
    const group = await service.groups.findOwnedByName(owner.id, name);
    if (!group) throw new CliError(`${owner.username} has no group named ${JSON.stringify(name)}`);
    return group;
  }
  const groups = await service.groups.findAllByName(raw);
  if (groups.length === 0) throw new CliError(`no group named ${JSON.stringify(raw)}; ${NAME_IT}`);
  if (groups.length > 1) throw new CliError(`group name ${JSON.stringify(raw)} is ambiguous (owned by ${groups.map((group) => group.owner).sort().join(', ')}); ${NAME_IT}`);
  return groups[0]!;
}

/**
 * The added user's open pages hear of their notification through Redis when REDIS_URL is set;
 * else their bell shows it at their next page. Failing to tell is a warning: the member was added.
 */
async function announceToServers(config: Config, userId: number): Promise<void> {
  try {
    await publishFromOutside(config, { type: 'notifications.changed', userIds: [userId] });
  } catch (error) {
    console.error(`groupnotes: warning: could not tell running servers through Redis (${(error as Error).message}); the bell shows the notification at the next page`);
  }
}

/** Group administration from the command line. */
export const groupCommands: Record<string, Command> = {
  creategroup: {
    usage: 'creategroup <name> --owner <username>',
    summary: 'create a group; the owner becomes its first member',
    positionals: { min: 1, max: 1 },
    options: { owner: { type: 'string' } },
    async run({ config, args, options }) {
      if (typeof options.owner !== 'string' || !options.owner.trim()) throw new CliError('creategroup needs --owner <username>');
      const name = groupForm.safeParse({ name: args[0] });
      if (!name.success) throw new CliError(name.error.issues[0]!.message);
      const ownerName = options.owner.trim();
      await withDatabase(config, async ({ db }) => {
        const owner = await new UsersRepository(db).findByUsername(ownerName);
        if (!owner) throw new CliError(`no user named "${ownerName}"`);
        // No hub here: a new group has no chat sockets to tell about.
        const created = await new GroupsService(db, null).create(owner.id, name.data.name);
        if (!created.ok) throw new CliError(firstError(created.errors));
        console.log(`created group ${created.value.name} (id ${created.value.id}) owned by ${owner.username}`);
      });
    },
  },
  addmember: {
    usage: 'addmember <group> <username>',
    summary: 'add a user to a group (<group>: its id, or <owner>/<name>)',
    positionals: { min: 2, max: 2 },
    async run({ config, args }) {
      const [groupArgument, username] = args as [string, string];
      await withDatabase(config, async ({ db }) => {
        const service = new GroupsService(db, null, new Notifications(null));
        const group = await findGroup(db, service, groupArgument.trim());
        const added = await service.addMember(group, username);
        if (!added.ok) throw new CliError(firstError(added.errors));
        console.log(`added ${added.value.username} to ${group.name} (id ${group.id})`);
        await announceToServers(config, added.value.id);
      });
    },
  },
};
