import { UsersRepository } from '../features/accounts/index.js';
import { AdminService, type Actor } from '../features/admin/index.js';
import { SessionStore } from '../platform/chain/session.js';
import { type Command, withDatabase } from './command.js';
import { CliError } from './io.js';

/** The command line in the audit log: no user, and no address. */
export const COMMAND_LINE: Actor = { id: null, name: 'command line', address: 'command line' };

function adminFlagCommand(admin: boolean): Command {
  const verb = admin ? 'promote' : 'demote';
  return {
    usage: `${verb} <username>`,
    summary: admin ? 'make a user an administrator (/admin/)' : "take a user's administrator flag",
    positionals: { min: 1, max: 1 },
    async run({ config, args }) {
      await withDatabase(config, async ({ db }) => {
        const user = await new UsersRepository(db).findByUsername(args[0]!);
        if (!user) throw new CliError(`no user named ${JSON.stringify(args[0])}`);
        const outcome = await new AdminService(db, new SessionStore(db, config.sessionCookieAge)).setAdmin(COMMAND_LINE, user.id, admin);
        if (!outcome.ok && outcome.reason === 'last-admin') throw new CliError(`${user.username} is the last active administrator; make someone else one first (groupnotes promote <username>)`);
        console.log(`${user.username} is ${admin ? 'now' : 'no longer'} an administrator`);
      });
    },
  };
}

/** Administrators from the command line. */
export const adminCommands: Record<string, Command> = {
  promote: adminFlagCommand(true),
  demote: adminFlagCommand(false),
};
