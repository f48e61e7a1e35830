import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ViewerRef } from '../../platform/object-kinds.js';
import type { Services } from '../../services.js';
import { listApiRoutes, type ListApi } from './api.js';
import type { ItemRow, ListKind, ListRow } from './kind.js';
import { type ListLive, liveKind, liveReader } from './live.js';
import { LiveListEvents } from './live-events.js';
import { liveListRoutes } from './live-routes.js';
import { type ListPages, listPageRoutes } from './routes.js';
import { type ListChecks, ListService } from './service.js';

// A kind of list with everything it registers: its pages, its API, its live sockets, its object
// kind (chat's cards, the group page) and its link in the navigation. A kind's folder exports one
// such module; the feature's index.ts registers each.

export interface ListKindModule<List extends ListRow, Item extends ItemRow, ListInput, ItemInput, ListJson extends { id: number }, ItemJson extends { id: number }> {
  kind: ListKind<List, Item, ListInput, ItemInput>;
  checks: ListChecks<List, Item, ListInput, ItemInput>;
  pages: ListPages<List, Item, ListInput, ItemInput>;
  api: ListApi<List, Item, ListInput, ItemInput, ListJson, ItemJson>;
  live: ListLive<Item>;
  /** Routes of the kind's own, beside the engine's (a shopping list's "clear bought items"). */
  routes?(app: FastifyInstance, service: ListService<List, Item, ListInput, ItemInput>): void;
}

export function registerListKind<List extends ListRow, Item extends ItemRow, ListInput, ItemInput, ListJson extends { id: number }, ItemJson extends { id: number }>(
  app: FastifyInstance,
  services: Services,
  module: ListKindModule<List, Item, ListInput, ItemInput, ListJson, ItemJson>,
): void {
  const { kind } = module;
  const live = new LiveListEvents(services.hub, liveReader(kind, module.live), app.log);
  const service = new ListService(services.db, kind, module.checks, services.notifications, live);
  services.sessions.addNavigationLink({ label: kind.navigation, href: `${kind.base}/` });
  const { lists } = kind.tables;
  const rows = (viewer: ViewerRef) =>
    service.lists.access
      .visibleLists(viewer)
      .select([sql.ref<number>(`${lists}.id`).as('id'), sql.ref<string>(`${lists}.title`).as('title'), sql.ref<number>(`${lists}.updated_at`).as('updated_at')]);
  services.objectKinds.register({
    kind: kind.name,
    noun: kind.cardLabel,
    path: `${kind.base}/`,
    visible: rows,
    inGroup: kind.group && {
      heading: kind.group.heading,
      shared: (viewer, groupId) => rows(viewer).where(sql.ref<number | null>(`${lists}.group_id`), '=', groupId),
      unshareOwned: (trx, ownerId, groupId) => service.on(trx, null).lists.takeOwnedOutOfGroup(ownerId, groupId),
    },
  });
  listPageRoutes(app, service, module.pages);
  listApiRoutes(app, { db: services.db, service, live }, module.api);
  liveListRoutes(app, services, liveKind(services.db, kind, module.live));
  module.routes?.(app, service);
}
