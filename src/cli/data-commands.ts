import { BadDump, formatReport, importDjango, NotEmpty } from '../features/django-import/import.js';
import { type Command, withDatabase } from './commands.js';
import { CliError } from './io.js';

/** Data in (PRODUCT.md section 5): the original Django application's dump. */
export const dataCommands: Record<string, Command> = {
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
