import type { z } from 'zod';
import { pathId } from '../../../platform/ids.js';
import { viewContext } from '../../../platform/views/context.js';
import { itemsAnchor } from '../item-pages.js';
import { groupChecks } from '../groups.js';
import type { ListKindModule } from '../register.js';
import { ownerPage } from '../routes.js';
import {
  shoppingItemBody,
  shoppingItemJson,
  shoppingItemOut,
  shoppingItemPatch,
  shoppingListBody,
  shoppingListDetailJson,
  shoppingListJson,
  shoppingListOut,
  shoppingListPatch,
} from './api-schemas.js';
import { shoppingItemForm, type ShoppingItemInput, shoppingListForm, type ShoppingListInput } from './forms.js';
import { ClearBoughtPage, EditShoppingItemPage } from './item-views.js';
import { SHOPPING, type ShoppingItemPrice, type ShoppingItemRow, type ShoppingListRow } from './kind.js';
import { shoppingLive } from './live.js';
import { formatCents, formatQuantity, typedDecimal } from './money.js';
import { ShoppingFormPage, ShoppingListPage } from './views.js';
import { parseJsonRows } from '../../../db/json-rows.js';

// Shopping lists, as the lists engine serves them: the kind (kind.ts) with its pages, its API and
// its live rows. What they have of their own: a store, a group, prices and an estimated total,
// and clearing the bought items at once.

export const shoppingLists: ListKindModule<ShoppingListRow, ShoppingItemRow, ShoppingListInput, ShoppingItemInput, z.infer<typeof shoppingListJson>, z.infer<typeof shoppingItemJson>> = {
  kind: SHOPPING,
  // A list's group is one of the owner's (groups.ts).
  checks: groupChecks,
  pages: {
    forms: { list: shoppingListForm, item: shoppingItemForm },
    messages: { created: 'shopping.created', saved: 'shopping.saved', deleted: 'shopping.deleted' },
    form: (ctx, { list, groups, values, errors }) => ShoppingFormPage({ ctx, list, groups, values, errors }),
    formValues: (list) => ({
      title: list.title,
      store_name: list.store_name,
      group: list.group_id === null ? '' : String(list.group_id),
      group_permission: list.group_permission,
      currency: list.currency,
    }),
    page: (ctx, page, forms) => ShoppingListPage({ ctx, page, ...forms }),
    itemForm: (ctx, item, page, state) => EditShoppingItemPage({ ctx, item, listTitle: page.list.title, ...state }),
    // Stored numbers shown back as the page's language types them: `1,5` in Ukrainian.
    itemValues: (item, language) => ({
      name: item.name,
      quantity: typedDecimal(formatQuantity(item.quantity_milli), language),
      unit: item.unit,
      estimated_price: item.estimated_price_cents === null ? '' : typedDecimal(formatCents(item.estimated_price_cents), language),
    }),
  },
  api: {
    summaries: {
      list: 'Your shopping lists, those shared with you and those of your groups, most recently changed first (without their items).',
      create: 'Create a shopping list, for one of your groups or none, in a currency (yours when none is sent).',
      get: 'A shopping list with its items and the estimated total of those not yet bought.',
      patch: 'Change the title, store, group or currency of a shopping list (owner only); If-Match honoured.',
      addItem: 'Add an item to a shopping list (owner, tick users, group members when the group may tick).',
      patchItem: 'Mark an item bought or not bought (owner, tick users, group members when the group may tick); If-Match honoured.',
    },
    listJson: shoppingListJson,
    itemJson: shoppingItemJson,
    detailJson: shoppingListDetailJson,
    listBody: shoppingListBody,
    listPatch: shoppingListPatch,
    itemBody: shoppingItemBody,
    itemPatch: shoppingItemPatch,
    // The page's items, or the collection's items still to buy: what the estimated total is made of.
    listOut: (list, userId, sharedWith, items) =>
      shoppingListOut(list, userId, sharedWith, items ?? parseJsonRows<ShoppingItemPrice>(list.to_buy ?? [])),
    current: (json) => ({ title: json.title, store_name: json.store_name, group: json.group, group_permission: json.group_permission ?? 'read', currency: json.currency }),
    itemOut: shoppingItemOut,
  },
  live: shoppingLive,
  routes(app, service) {
    app.get('/shopping/:pk/clear-bought/', async (request, reply) => {
      const page = await ownerPage(service, request.user!.id, pathId(request));
      const bought = page.items.filter((entry) => entry.is_done === 1).length;
      return reply.render(ClearBoughtPage({ ctx: viewContext(request), list: page.list, bought }));
    });

    app.post('/shopping/:pk/clear-bought/', async (request, reply) => {
      const listId = pathId(request);
      const cleared = await service.clearDone(request.user!.id, listId);
      request.flash({ key: 'shopping.cleared', values: { count: cleared } });
      return reply.redirect(itemsAnchor(SHOPPING, listId), 302);
    });
  },
};
