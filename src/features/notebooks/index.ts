import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { notebookPages } from './routes.js';

// Notebooks: a user's own folders of notes, their pages and API. A notebook's page of notes is the
// notes feature's. The front door: what the feature registers and what others may use of it.

export const notebooksFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.notebooks', href: '/notebooks/' });
  await notebookPages(app, services);
};

export { DEFAULT_NOTEBOOK_COLOR } from './forms.js';
export { NotebooksRepository } from './repository.js';
