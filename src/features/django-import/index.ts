// Importing a `dumpdata` of the original Django application: the command line's import-django.
// Registers nothing on the server.

export { BadDump, formatReport, importDjango, NotEmpty } from './import.js';
