import type { Config } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { username as usernameSchema } from '../features/accounts/index.js';
import { AccountNotices, AccountsService } from '../features/accounts/index.js';
import { Outbox } from '../platform/mail/outbox.js';
import { AdminService } from '../features/admin/index.js';
import { sweepExpired } from '../maintenance.js';
import { SessionStore } from '../platform/chain/session.js';
import { issueMessage } from '../platform/forms.js';
import { serve } from '../server.js';
import { COMMAND_LINE } from './admin-commands.js';
import { announceEndedSessions, type Command, withDatabase } from './command.js';
import { CliError, firstError, readNewPassword } from './io.js';

/** The service with the owner's mail: queued here, sent by a serving instance's sender. */
function accountsService(config: Config, database: DatabaseHandle): AccountsService {
  const notices = new AccountNotices(new Outbox(database.db, database.dialect), config.publicUrl);
  return new AccountsService(database.db, config, new SessionStore(database.db, config.sessionCookieAge), notices);
}

/** Serving, migrations and users' accounts. */
export const accountCommands: Record<string, Command> = {
  serve: {
    usage: 'serve',
    summary: 'apply migrations, then serve HTTP (what npm start runs)',
    positionals: { min: 0, max: 0 },
    run: ({ config }) => serve(config),
  },
  migrate: {
    usage: 'migrate',
    summary: 'apply pending migrations, printing each',
    positionals: { min: 0, max: 0 },
    async run({ config }) {
      const database = openDatabase(config.databaseUrl, { poolSize: 2 });
      try {
        const results = await migrateToLatest(database.db);
        for (const result of results) console.log(`applied ${result.migrationName}`);
        if (results.length === 0) console.log('no migrations to apply');
      } finally {
        await database.close();
      }
    },
  },
  createuser: {
    usage: 'createuser <username> [--email E] [--password-stdin] [--admin]',
    summary: 'create a user (with --admin, an administrator)',
    positionals: { min: 1, max: 1 },
    options: { email: { type: 'string' }, 'password-stdin': { type: 'boolean' }, admin: { type: 'boolean' } },
    async run({ config, args, options }) {
      const username = usernameSchema.safeParse(args[0]);
      if (!username.success) throw new CliError(firstError({ username: [issueMessage(username.error.issues[0]!)] }));
      const email = typeof options.email === 'string' ? options.email.trim() : '';
      if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new CliError(`"${email}" is not a valid email address`);
      const password = await readNewPassword(options['password-stdin'] === true);
      await withDatabase(config, async (database) => {
        const created = await accountsService(config, database).createUser({ username: username.data, email, password });
        if (!created.ok) throw new CliError(firstError(created.errors));
        if (options.admin === true) await new AdminService(database.db, new SessionStore(database.db, config.sessionCookieAge)).setAdmin(COMMAND_LINE, created.value.id, true);
        console.log(`created ${options.admin === true ? 'administrator' : 'user'} ${created.value.username} (id ${created.value.id})`);
      });
    },
  },
  changepassword: {
    usage: 'changepassword <username> [--password-stdin]',
    summary: "set a user's password and end that user's sessions",
    positionals: { min: 1, max: 1 },
    options: { 'password-stdin': { type: 'boolean' } },
    async run({ config, args, options }) {
      await withDatabase(config, async (database) => {
        const accounts = accountsService(config, database);
        const user = await accounts.users.findByUsername(args[0]!);
        if (!user) throw new CliError(`no user named "${args[0]}"`);
        const password = await readNewPassword(options['password-stdin'] === true);
        const ended = await accounts.setNewPassword(user, password);
        if (!ended.ok) throw new CliError(firstError(ended.errors));
        console.log(`password changed for ${user.username}; ${ended.value.length} session(s) ended`);
        await announceEndedSessions(config, ended.value);
      });
    },
  },
  clearsessions: {
    usage: 'clearsessions',
    summary: 'delete expired sessions',
    positionals: { min: 0, max: 0 },
    async run({ config }) {
      await withDatabase(config, async (database) => {
        console.log(`deleted ${await sweepExpired(database.db)} expired session(s)`);
      });
    },
  },
};
