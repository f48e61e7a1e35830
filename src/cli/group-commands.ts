import { UsersRepository } from '../features/accounts/repository.js';
import { groupForm } from '../features/groups/forms.js';
import { GroupsService } from '../features/groups/service.js';
import { type Command, withDatabase } from './commands.js';
import { CliError } from './io.js';

const firstError = (errors: Record<string, string[]>) => Object.values(errors).flat()[0] ?? 'invalid input';

/** Group administration from the command line (PRODUCT.md section 5). */
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
    summary: 'add a user to a group (the group by name)',
    positionals: { min: 2, max: 2 },
    async run({ config, args }) {
      const [groupName, username] = args as [string, string];
      await withDatabase(config, async ({ db }) => {
        const service = new GroupsService(db, null);
        const group = await service.groups.findByName(groupName);
        if (!group) throw new CliError(`no group named "${groupName}"`);
        const added = await service.addMember(group, username);
        if (!added.ok) throw new CliError(firstError(added.errors));
        console.log(`added ${added.value.username} to ${group.name}`);
      });
    },
  },
};
