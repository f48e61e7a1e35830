import { DemoRefused, seedDemo } from '../features/demo/index.js';
import { BadDump, formatReport, importDjango, NotEmpty } from '../features/django-import/index.js';
import { announceEndedSessions, type Command, withDatabase } from './command.js';
import { CliError } from './io.js';

/** Data in: demo data, and the original Django application's dump. */
export const dataCommands: Record<string, Command> = {
  'seed-demo': {
    usage: 'seed-demo [--force]',
    summary: 'three demo users with notes, lists, a group and its chat; prints the logins',
    positionals: { min: 0, max: 0 },
    options: { force: { type: 'boolean' } },
    async run({ config, options }) {
      const force = options.force === true;
      if (config.production && !force) throw new CliError('refusing to add demo users with printed passwords to a production instance (NODE_ENV=production); seed-demo --force if you mean it');
      await withDatabase(config, async (database) => {
        let seeded: Awaited<ReturnType<typeof seedDemo>>;
        try {
          seeded = await seedDemo(database.db, database.dialect, { iterations: config.pbkdf2Iterations, force });
        } catch (error) {
          if (error instanceof DemoRefused) throw new CliError(error.message);
          throw error;
        }
        console.log('demo data created: 3 users in the group "Demo household" (with its chat), 8 notes, a to-do list shared with demo-ben, a shopping list shared with the group');
        console.log('sign in at /accounts/login/ as:');
        for (const login of seeded.logins) console.log(`  ${login.username.padEnd(10)} ${login.password}`);
        await announceEndedSessions(config, seeded.endedSessions);
      });
    },
  },
  'import-django': {
    usage: 'import-django <dumpdata.json> [--dry-run]',
    summary: "import the Django application's dumpdata into an empty database",
    positionals: { min: 1, max: 1 },
    options: { 'dry-run': { type: 'boolean' } },
    async run({ config, args, options }) {
      const path = args[0]!;
      const dryRun = options['dry-run'] === true;
      await withDatabase(config, async (database) => {
        try {
          const { dump, plan } = await importDjango(database.db, database.dialect, path, { dryRun });
          console.log(formatReport(dump, plan, dryRun));
        } catch (error) {
          if (error instanceof BadDump) throw new CliError(`${path}: ${error.message}; nothing was imported`);
          if (error instanceof NotEmpty) throw new CliError(`${error.message}; nothing was imported`);
          throw error;
        }
      });
    },
  },
};
