import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { BELL } from './bell.js';
import { notificationPages } from './routes.js';

// Notifications: the bell on every page (a counted navigation link), /notifications/ and its API,
// and the live count over a socket. Other features send notifications through the Notifications
// service they are given (services.ts builds it).

export const notificationsFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink(BELL);
  await notificationPages(app, services);
};

export { Notifications } from './notifications.js';
