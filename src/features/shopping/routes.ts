import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { formFailure, parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { ShoppingRepository } from './repository.js';
import { viewContext } from '../../platform/views/context.js';
import { pathId } from '../../platform/ids.js';
import { DeleteListPage, type FormState, ListIndexPage } from '../lists-sharing/views.js';
import { LiveListEvents } from '../lists-sharing/live-events.js';
import { liveListRoutes } from '../lists-sharing/live-routes.js';
import { shoppingApi } from './api.js';
import { shoppingLiveKind, shoppingLiveReader } from './live.js';
import { shoppingItemForm, shoppingListForm } from './forms.js';
import { ShoppingService } from './service.js';
import { NotFound } from '../../errors.js';
import { addAnchor, DeleteItemPage, itemAnchor, itemsAnchor } from '../lists-sharing/item-pages.js';
import { ClearBoughtPage, EditShoppingItemPage } from './item-views.js';
import { formatCents, formatQuantity, typedDecimal } from './money.js';
import { requestTranslator } from '../../platform/i18n/index.js';
import { SHOPPING, ShoppingFormPage, ShoppingListPage } from './views.js';

export const shoppingFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.shopping', href: '/shopping/' });
  const live = new LiveListEvents(services.hub, shoppingLiveReader, app.log);
  const shopping = new ShoppingService(services.db, services.notifications, live);
  const lists = new ShoppingRepository(services.db);
  services.objectKinds.register({
    kind: 'shopping',
    noun: 'shopping.card_label',
    path: '/shopping/',
    visible: (viewer) => lists.visibleLists(viewer).select(['shopping_lists.id', 'shopping_lists.title', 'shopping_lists.updated_at']),
    inGroup: {
      heading: 'shopping.shelf_heading',
      shared: (viewer, groupId) =>
        lists.visibleLists(viewer).where('shopping_lists.group_id', '=', groupId).select(['shopping_lists.id', 'shopping_lists.title', 'shopping_lists.updated_at']),
    },
  });
  liveListRoutes(app, services, shoppingLiveKind(services.db));
  const userId = (request: FastifyRequest) => request.user!.id;

  /** The list page, with a failed share or item form shown again on it (400). */
  const showList = async (request: FastifyRequest, reply: FastifyReply, listId: number, forms: { share?: FormState; item?: FormState } = {}, status = 200) => {
    const page = await shopping.page(userId(request), listId);
    return reply.render(ShoppingListPage({ ctx: viewContext(request), ...page, ...forms }), status);
  };

  /** The new or edit form, with the caller's groups to choose from. */
  const showForm = async (request: FastifyRequest, reply: FastifyReply, state: FormState & { list?: { id: number; title: string } }, status = 200) => {
    const groups = await shopping.groupChoices(userId(request));
    return reply.render(ShoppingFormPage({ ctx: viewContext(request), groups, ...state }), status);
  };

  app.get('/shopping/', async (request, reply) => {
    const lists = await shopping.index(userId(request));
    return reply.render(ListIndexPage({ ctx: viewContext(request), kind: SHOPPING, lists }));
  });

  app.get('/shopping/new/', async (request, reply) => showForm(request, reply, {}));

  app.post('/shopping/new/', async (request, reply) => {
    const form = parseForm(shoppingListForm, request.body);
    if (!form.ok) return showForm(request, reply, form, 400);
    const created = await shopping.create(userId(request), form.data);
    if (!created.ok) return showForm(request, reply, formFailure(request.body, created.errors), 400);
    request.flash('shopping.created');
    return reply.redirect(`/shopping/${created.value}/`, 302);
  });

  app.get('/shopping/:pk/', async (request, reply) => showList(request, reply, pathId(request)));

  app.get('/shopping/:pk/edit/', async (request, reply) => {
    const list = await shopping.ownedList(userId(request), pathId(request));
    const values = { title: list.title, store_name: list.store_name, group: list.group_id === null ? '' : String(list.group_id), group_permission: list.group_permission };
    return showForm(request, reply, { list, values });
  });

  app.post('/shopping/:pk/edit/', async (request, reply) => {
    const list = await shopping.ownedList(userId(request), pathId(request));
    const form = parseForm(shoppingListForm, request.body);
    if (!form.ok) return showForm(request, reply, { list, ...form }, 400);
    const updated = await shopping.update(userId(request), list.id, form.data);
    if (!updated.ok) return showForm(request, reply, { list, ...formFailure(request.body, updated.errors) }, 400);
    request.flash('shopping.saved');
    return reply.redirect(`/shopping/${list.id}/`, 302);
  });

  app.get('/shopping/:pk/delete/', async (request, reply) => {
    const list = await shopping.ownedList(userId(request), pathId(request));
    return reply.render(DeleteListPage({ ctx: viewContext(request), kind: SHOPPING, list }));
  });

  app.post('/shopping/:pk/delete/', async (request, reply) => {
    await shopping.delete(userId(request), pathId(request));
    request.flash('shopping.deleted');
    return reply.redirect('/shopping/', 302);
  });

  app.post('/shopping/:pk/share/', async (request, reply) => {
    const listId = pathId(request);
    const outcome = await shopping.share(userId(request), listId, request.body, request.user!.username);
    if (!outcome.ok) return showList(request, reply, listId, { share: outcome }, 400);
    request.flash(outcome.message);
    return reply.redirect(`/shopping/${listId}/`, 302);
  });

  // The add form's page is the list: a GET here (a reload of a failed add) goes back to it.
  app.get('/shopping/:pk/items/add/', async (request, reply) => reply.redirect(`/shopping/${pathId(request)}/`, 302));

  app.post('/shopping/:pk/items/add/', async (request, reply) => {
    const listId = pathId(request);
    // The permission first: a reader's invalid form is a 404 too, never a page of errors.
    await shopping.requireTick(userId(request), listId);
    const form = parseForm(shoppingItemForm(requestTranslator(request).language), request.body);
    if (!form.ok) return showList(request, reply, listId, { item: form }, 400);
    await shopping.addItem(userId(request), listId, form.data);
    return reply.redirect(addAnchor(SHOPPING, listId), 302);
  });

  app.post('/shopping/items/:pk/toggle/', async (request, reply) => {
    const itemId = pathId(request);
    const listId = await shopping.toggleItem(userId(request), itemId);
    return reply.redirect(itemAnchor(SHOPPING, listId, itemId), 302);
  });

  /** The edit page of an item of a list the caller owns (anyone else: 404, as for none). */
  const showItemForm = async (request: FastifyRequest, reply: FastifyReply, state: FormState = {}, status = 200) => {
    const item = await shopping.ownedItem(userId(request), pathId(request));
    const list = await shopping.ownedList(userId(request), item.list_id);
    const ctx = viewContext(request);
    // Stored numbers shown back as the page's language types them: `1,5` in Ukrainian.
    const values = state.values ?? {
      name: item.name,
      quantity: typedDecimal(formatQuantity(item.quantity_milli), ctx.language),
      unit: item.unit,
      estimated_price: item.estimated_price_cents === null ? '' : typedDecimal(formatCents(item.estimated_price_cents), ctx.language),
    };
    return reply.render(EditShoppingItemPage({ ctx, item, listTitle: list.title, values, errors: state.errors }), status);
  };

  app.get('/shopping/items/:pk/edit/', async (request, reply) => showItemForm(request, reply));

  app.post('/shopping/items/:pk/edit/', async (request, reply) => {
    const itemId = pathId(request);
    await shopping.ownedItem(userId(request), itemId);
    const form = parseForm(shoppingItemForm(requestTranslator(request).language), request.body);
    if (!form.ok) return showItemForm(request, reply, form, 400);
    const listId = await shopping.editItem(userId(request), itemId, form.data);
    request.flash('lists.item_saved');
    return reply.redirect(itemAnchor(SHOPPING, listId, itemId), 302);
  });

  app.get('/shopping/items/:pk/delete/', async (request, reply) => {
    const item = await shopping.ownedItem(userId(request), pathId(request));
    return reply.render(DeleteItemPage({ ctx: viewContext(request), kind: SHOPPING, item }));
  });

  app.post('/shopping/items/:pk/delete/', async (request, reply) => {
    const listId = await shopping.deleteItem(userId(request), pathId(request));
    request.flash('lists.item_deleted');
    return reply.redirect(itemsAnchor(SHOPPING, listId), 302);
  });

  app.get('/shopping/:pk/clear-bought/', async (request, reply) => {
    const page = await shopping.page(userId(request), pathId(request));
    if (!page.canEdit) throw new NotFound();
    const bought = page.items.filter((entry) => entry.is_bought === 1).length;
    return reply.render(ClearBoughtPage({ ctx: viewContext(request), list: page.list, bought }));
  });

  app.post('/shopping/:pk/clear-bought/', async (request, reply) => {
    const listId = pathId(request);
    const cleared = await shopping.clearBought(userId(request), listId);
    request.flash({ key: 'shopping.cleared', values: { count: cleared } });
    return reply.redirect(itemsAnchor(SHOPPING, listId), 302);
  });

  shoppingApi(app, { db: services.db, notifications: services.notifications, live });
};
