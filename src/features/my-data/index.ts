// A user's own data: the export zip, importing one (or a zip of Markdown files), deleting the account.

export { myDataPages as myDataFeature } from './routes.js';
