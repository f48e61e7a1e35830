import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { z } from 'zod';
import { NotFound } from '../../errors.js';
import { type FormValues, formFailure, parseForm } from '../../platform/forms.js';
import { type Language, type MessageKey, requestTranslator } from '../../platform/i18n/index.js';
import { pathId } from '../../platform/ids.js';
import { type ViewContext, viewContext } from '../../platform/views/context.js';
import { addAnchor, DeleteItemPage, itemAnchor, itemsAnchor } from './item-pages.js';
import type { ItemRow, ListRow } from './kind.js';
import type { ListsRepository } from './repository.js';
import type { ListPage, ListService } from './service.js';
import type { GroupChoice } from './sharing.js';
import { DeleteListPage, type FormState, ListIndexPage } from './views.js';

// The pages of every kind of list: the index, the new and edit forms, the list with its share and
// add forms, the item edit and delete pages, and the POSTs that change them (each answered with a
// redirect, or the form again with its errors and a 400). What a kind draws comes from its pages.

/** What a kind's pages are made of. */
export interface ListPages<List extends ListRow, Item extends ItemRow, ListInput, ItemInput> {
  forms: {
    list: z.ZodType<ListInput>;
    /** The item form, reading numbers as the page's language writes them. */
    item(language: Language): z.ZodType<ItemInput>;
  };
  /** The flash messages of a list created, saved, deleted. */
  messages: { created: MessageKey; saved: MessageKey; deleted: MessageKey };
  /** The new or edit form, with the caller's groups to choose from (kinds with groups). */
  form(ctx: ViewContext, state: FormState & { list?: List; groups: GroupChoice[] }): VNode;
  /** A list's values in its edit form. */
  formValues(list: List): FormValues;
  /** The list's page, with a failed share or item form shown again on it. */
  page(ctx: ViewContext, page: ListPage<List, Item>, forms: { share?: FormState; item?: FormState }): VNode;
  /** An item's edit page, on its list's page data (its title, its readers). */
  itemForm(ctx: ViewContext, item: Item, page: ListPage<List, Item>, state: FormState): VNode;
  /** An item's values in its edit form, as the page's language writes them. */
  itemValues(item: Item, language: Language): FormValues;
  /** More on the index, before the lists (to-do's "Assigned to me"). */
  index?(ctx: ViewContext, userId: number, lists: ListsRepository<List, Item, ListInput, ItemInput>): Promise<VNode>;
}

export function listPageRoutes<List extends ListRow, Item extends ItemRow, ListInput, ItemInput>(
  app: FastifyInstance,
  service: ListService<List, Item, ListInput, ItemInput>,
  pages: ListPages<List, Item, ListInput, ItemInput>,
): void {
  const { kind } = service;
  const { base } = kind;
  const userId = (request: FastifyRequest) => request.user!.id;
  const itemForm = (request: FastifyRequest) => pages.forms.item(requestTranslator(request).language);

  /** The list page, with a failed share or item form shown again on it (400). */
  const showList = async (request: FastifyRequest, reply: FastifyReply, listId: number, forms: { share?: FormState; item?: FormState } = {}, status = 200) => {
    const page = await service.page(userId(request), listId);
    return reply.render(pages.page(viewContext(request), page, forms), status);
  };

  /** The new or edit form, with the caller's groups to choose from (kinds with groups). */
  const showForm = async (request: FastifyRequest, reply: FastifyReply, state: FormState & { list?: List }, status = 200) => {
    const groups = kind.group ? await service.groupChoices(userId(request)) : [];
    return reply.render(pages.form(viewContext(request), { groups, ...state }), status);
  };

  app.get(`${base}/`, async (request, reply) => {
    const ctx = viewContext(request);
    const lists = await service.index(userId(request));
    return reply.render(ListIndexPage({ ctx, kind, lists, children: await pages.index?.(ctx, userId(request), service.lists) }));
  });

  app.get(`${base}/new/`, async (request, reply) => showForm(request, reply, {}));

  app.post(`${base}/new/`, async (request, reply) => {
    const form = parseForm(pages.forms.list, request.body);
    if (!form.ok) return showForm(request, reply, form, 400);
    const created = await service.create(userId(request), form.data);
    if (!created.ok) return showForm(request, reply, formFailure(request.body, created.errors), 400);
    request.flash(pages.messages.created);
    return reply.redirect(`${base}/${created.value}/`, 302);
  });

  app.get(`${base}/:pk/`, async (request, reply) => showList(request, reply, pathId(request)));

  app.get(`${base}/:pk/edit/`, async (request, reply) => {
    const list = await service.ownedList(userId(request), pathId(request));
    return showForm(request, reply, { list, values: pages.formValues(list) });
  });

  app.post(`${base}/:pk/edit/`, async (request, reply) => {
    const list = await service.ownedList(userId(request), pathId(request));
    const form = parseForm(pages.forms.list, request.body);
    if (!form.ok) return showForm(request, reply, { list, ...form }, 400);
    const updated = await service.update(userId(request), list.id, form.data);
    if (!updated.ok) return showForm(request, reply, { list, ...formFailure(request.body, updated.errors) }, 400);
    request.flash(pages.messages.saved);
    return reply.redirect(`${base}/${list.id}/`, 302);
  });

  app.get(`${base}/:pk/delete/`, async (request, reply) => {
    const list = await service.ownedList(userId(request), pathId(request));
    return reply.render(DeleteListPage({ ctx: viewContext(request), kind, list }));
  });

  app.post(`${base}/:pk/delete/`, async (request, reply) => {
    await service.delete(userId(request), pathId(request));
    request.flash(pages.messages.deleted);
    return reply.redirect(`${base}/`, 302);
  });

  app.post(`${base}/:pk/share/`, async (request, reply) => {
    const listId = pathId(request);
    const outcome = await service.share(userId(request), listId, request.body, request.user!.username);
    if (!outcome.ok) return showList(request, reply, listId, { share: outcome }, 400);
    request.flash(outcome.message);
    return reply.redirect(`${base}/${listId}/`, 302);
  });

  // The add form's page is the list: a GET here (a reload of a failed add) goes back to it.
  app.get(`${base}/:pk/items/add/`, async (request, reply) => reply.redirect(`${base}/${pathId(request)}/`, 302));

  app.post(`${base}/:pk/items/add/`, async (request, reply) => {
    const listId = pathId(request);
    // The permission first: a reader's invalid form is a 404 too, never a page of errors.
    await service.requireTick(userId(request), listId);
    const form = parseForm(itemForm(request), request.body);
    if (!form.ok) return showList(request, reply, listId, { item: form }, 400);
    const added = await service.addItem(userId(request), listId, form.data);
    if (!added.ok) return showList(request, reply, listId, { item: formFailure(request.body, added.errors) }, 400);
    return reply.redirect(addAnchor(kind, listId), 302);
  });

  app.post(`${base}/items/:pk/toggle/`, async (request, reply) => {
    const itemId = pathId(request);
    const listId = await service.toggleItem(userId(request), itemId);
    return reply.redirect(itemAnchor(kind, listId, itemId), 302);
  });

  /** The edit page of an item of a list the caller owns (anyone else: 404, as for none). */
  const showItemForm = async (request: FastifyRequest, reply: FastifyReply, state: FormState = {}, status = 200) => {
    const item = await service.ownedItem(userId(request), pathId(request));
    const page = await service.page(userId(request), item.list_id);
    const ctx = viewContext(request);
    const values = state.values ?? pages.itemValues(item, ctx.language);
    return reply.render(pages.itemForm(ctx, item, page, { values, errors: state.errors }), status);
  };

  app.get(`${base}/items/:pk/edit/`, async (request, reply) => showItemForm(request, reply));

  app.post(`${base}/items/:pk/edit/`, async (request, reply) => {
    const itemId = pathId(request);
    await service.ownedItem(userId(request), itemId);
    const form = parseForm(itemForm(request), request.body);
    if (!form.ok) return showItemForm(request, reply, form, 400);
    const edited = await service.editItem(userId(request), itemId, form.data);
    if (!edited.ok) return showItemForm(request, reply, formFailure(request.body, edited.errors), 400);
    request.flash('lists.item_saved');
    return reply.redirect(itemAnchor(kind, edited.value, itemId), 302);
  });

  app.get(`${base}/items/:pk/delete/`, async (request, reply) => {
    const item = await service.ownedItem(userId(request), pathId(request));
    return reply.render(DeleteItemPage({ ctx: viewContext(request), kind, item: { id: item.id, list_id: item.list_id, name: kind.items.label(item) } }));
  });

  app.post(`${base}/items/:pk/delete/`, async (request, reply) => {
    const listId = await service.deleteItem(userId(request), pathId(request));
    request.flash('lists.item_deleted');
    return reply.redirect(itemsAnchor(kind, listId), 302);
  });
}

/** A list's page that only its owner may see (an owner's confirmation): NotFound for anyone else, like a list that is not there. */
export async function ownerPage<List extends ListRow, Item extends ItemRow, ListInput, ItemInput>(service: ListService<List, Item, ListInput, ItemInput>, userId: number, listId: number) {
  const page = await service.page(userId, listId);
  if (!page.canEdit) throw new NotFound();
  return page;
}
