import type { TodoList } from '../../../db/schema.js';
import type { ListKindModule } from '../register.js';
import { todoItemBody, todoItemJson, todoItemOut, todoItemPatch, todoListBody, todoListDetailJson, todoListJson, todoListOut, todoListPatch } from './api-schemas.js';
import { assignedTo } from './assigned.js';
import { todoItemForm, type TodoItemInput, todoListForm, type TodoListInput } from './forms.js';
import { EditTodoItemPage } from './item-views.js';
import { readerNamed, TODO, type TodoItemRow } from './kind.js';
import { todoLive } from './live.js';
import { AssignedToMe, TodoFormPage, TodoListPage } from './views.js';
import type { z } from 'zod';

// To-do lists, as the lists engine serves them: the kind (kind.ts) with its pages, its API and its
// live rows. What they have of their own: due dates, an order, assignees and "Assigned to me".

export const todoLists: ListKindModule<TodoList, TodoItemRow, TodoListInput, TodoItemInput, z.infer<typeof todoListJson>, z.infer<typeof todoItemJson>> = {
  kind: TODO,
  checks: {
    // An item is assigned to someone who may read the list, or to nobody. Checked after the
    // permission (the engine's), so a reader learns nothing about usernames.
    async item(lists, listId, input) {
      if (input.assignee === null) return null;
      const reader = await readerNamed(lists.db, listId, input.assignee).executeTakeFirst();
      return reader ? null : { assignee: [{ key: 'todo.assignee_cannot_see', values: { username: input.assignee } }] };
    },
  },
  pages: {
    forms: { list: todoListForm, item: () => todoItemForm },
    messages: { created: 'todo.created', saved: 'todo.saved', deleted: 'todo.deleted' },
    form: (ctx, { list, values, errors }) => TodoFormPage({ ctx, list, values, errors }),
    formValues: (list) => ({ title: list.title, description: list.description }),
    page: (ctx, page, forms) => TodoListPage({ ctx, page, ...forms }),
    itemForm: (ctx, item, page, state) => EditTodoItemPage({ ctx, item, listTitle: page.list.title, assignees: page.readers, ...state }),
    itemValues: (item) => ({ text: item.text, due_date: item.due_date ?? '', assignee: item.assignee_name ?? '' }),
    index: async (ctx, userId, lists) => AssignedToMe({ ctx, items: await assignedTo(lists.db, userId) }),
  },
  api: {
    summaries: {
      list: 'Your to-do lists and those shared with you, most recently changed first (without their items).',
      create: 'Create a to-do list.',
      get: 'A to-do list with its items.',
      patch: 'Change the title or description of a to-do list (owner only); If-Match honoured.',
      addItem: 'Add an item to a to-do list (owner and tick users), optionally assigned to someone who may read it.',
      patchItem: 'Mark an item done or not done (owner and tick users); If-Match honoured.',
    },
    listJson: todoListJson,
    itemJson: todoItemJson,
    detailJson: todoListDetailJson,
    listBody: todoListBody,
    listPatch: todoListPatch,
    itemBody: todoItemBody,
    itemPatch: todoItemPatch,
    listOut: (list, userId, sharedWith) => todoListOut(list, userId, sharedWith),
    current: (json) => ({ title: json.title, description: json.description }),
    itemOut: todoItemOut,
  },
  live: todoLive,
};
