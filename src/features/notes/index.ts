import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { NotesRepository } from './repository.js';
import { notePages } from './routes.js';
import { noteKind } from './visibility.js';

// Notes: their pages (a notebook's page of notes among them), search, reminders and their
// scheduler, the API, and notes as a kind of object other features show. The front door: what
// the feature registers and what others may use of it.

export const notesFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.notes', href: '/notes/' });
  services.objectKinds.register(noteKind(new NotesRepository(services.db, services.dialect)));
  await notePages(app, services);
};

export { plainExcerpt } from './excerpt.js';
export { CONTENT_MAX, TITLE_MAX } from './forms.js';
export { MESSAGE_MAX, REMINDERS_PER_NOTE } from './reminders-forms.js';
export { NotesRepository } from './repository.js';
