import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { tagPages } from './routes.js';

// Tags: a user's own labels for notes, their pages and API. The front door: what the feature
// registers and what others may use of it.

export const tagsFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.tags', href: '/tags/' });
  await tagPages(app, services);
};

export { DEFAULT_TAG_COLOR, tagForm } from './forms.js';
export { TagsRepository } from './repository.js';
