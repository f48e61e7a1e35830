import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { registerListKind } from './register.js';
import { shoppingLists } from './shopping/index.js';
import { DueNotices } from './todo/due-notices.js';
import { todoLists } from './todo/index.js';

// To-do and shopping lists: one engine (this folder) with two kinds (todo/, shopping/), each
// registered here with its pages, API, live sockets, object kind and navigation link. A third kind
// is a folder like todo/ and one line below.

export const listsFeature: FastifyPluginAsync<Services> = async (app, services) => {
  registerListKind(app, services, todoLists);
  registerListKind(app, services, shoppingLists);
  // "Due today" and "overdue" for to-do items (todo/due-notices.ts), looked for as often as reminders.
  services.background.add(new DueNotices({ db: services.db, notifications: services.notifications, log: app.log }, { pollMs: services.config.reminderPollMs }));
};

export { listsRepository } from './repository.js';
export { NAME_MAX, STORE_MAX, UNIT_MAX } from './shopping/forms.js';
export { SHOPPING } from './shopping/kind.js';
export { formatMoney, MAX_PRICE_CENTS, MAX_QUANTITY_MILLI, parseMoney, parseQuantity, showQuantity } from './shopping/money.js';
export { isValidDueDate } from './todo/dates.js';
export { DESCRIPTION_MAX, ITEM_TEXT_MAX } from './todo/forms.js';
export { TODO } from './todo/kind.js';
