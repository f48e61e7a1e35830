import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { chatPages } from './chat/routes.js';
import { MEMBERSHIPS } from './memberships.js';
import { groupPages } from './routes.js';

// Groups: their pages and API, memberships (read with every caller), the group page with what is
// shared with the group and its activity, and the group's chat (chat/). The front door: what the
// feature registers and what others may use of it.

export const groupsFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.groups', href: '/groups/' });
  services.sessions.addCallerColumn(MEMBERSHIPS);
  await groupPages(app, services);
  await chatPages(app, services);
};

export { type ActivityEvent, activityInsertWhen, recordActivity, recordChange, trimActivity } from './activity.js';
export { MAX_CHAT_LENGTH } from './chat/forms.js';
export { groupForm } from './forms.js';
export { callerGroupIds } from './memberships.js';
export { GroupsRepository } from './repository.js';
export { GroupsService } from './service.js';
export { type GroupShare, groupShareNotice } from './share-notices.js';
