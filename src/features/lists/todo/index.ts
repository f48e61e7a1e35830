import { groupChecks } from '../groups.js';
import type { ListKindModule } from '../register.js';
import { todoItemBody, todoItemJson, todoItemOut, todoItemPatch, todoListBody, todoListDetailJson, todoListJson, todoListOut, todoListPatch } from './api-schemas.js';
import { assignedTo } from './assigned.js';
import { todoItemForm, type TodoItemInput, todoListForm, type TodoListInput } from './forms.js';
import { EditTodoItemPage } from './item-views.js';
import { readerNamed, TODO, type TodoItemRow, type TodoListRow } from './kind.js';
import { todoLive } from './live.js';
import { tellNewAssignee } from './notices.js';
import { AssignedToMe, TodoFormPage, TodoListPage } from './views.js';
import type { z } from 'zod';

// To-do lists, as the lists engine serves them: the kind (kind.ts) with its pages, its API and its
// live rows. What they have of their own: due dates, an order, assignees and "Assigned to me"; a
// group, as a shopping list's.

export const todoLists: ListKindModule<TodoListRow, TodoItemRow, TodoListInput, TodoItemInput, z.infer<typeof todoListJson>, z.infer<typeof todoItemJson>> = {
  kind: TODO,
  checks: {
    // A list's group is one of the owner's (groups.ts).
    ...groupChecks,
    // An item is assigned to someone who may read the list, or to nobody. Checked after the
    // permission (the engine's), so a reader learns nothing about usernames.
    async item(lists, listId, input) {
      if (input.assignee === null) return null;
      const reader = await readerNamed(lists.db, listId, input.assignee).executeTakeFirst();
      return reader ? null : { assignee: [{ key: 'todo.assignee_cannot_see', values: { username: input.assignee } }] };
    },
    // The assignee is told the item is theirs, once (notices.ts).
    itemWritten: (db, notifier, actorId, itemId, input) => (input.assignee === null ? Promise.resolve([]) : tellNewAssignee(db, notifier, actorId, itemId)),
  },
  pages: {
    forms: { list: todoListForm, item: () => todoItemForm },
    messages: { created: 'todo.created', saved: 'todo.saved', deleted: 'todo.deleted' },
    form: (ctx, { list, groups, values, errors }) => TodoFormPage({ ctx, list, groups, values, errors }),
    formValues: (list) => ({
      title: list.title,
      description: list.description,
      group: list.group_id === null ? '' : String(list.group_id),
      group_permission: list.group_permission,
    }),
    page: (ctx, page, forms) => TodoListPage({ ctx, page, ...forms }),
    itemForm: (ctx, item, page, state) => EditTodoItemPage({ ctx, item, listTitle: page.list.title, assignees: page.readers, ...state }),
    itemValues: (item) => ({ text: item.text, due_date: item.due_date ?? '', assignee: item.assignee_name ?? '' }),
    index: async (ctx, userId, lists) => AssignedToMe({ ctx, items: await assignedTo(lists.db, userId) }),
  },
  api: {
    summaries: {
      list: 'Your to-do lists, those shared with you and those of your groups, most recently changed first (without their items).',
      create: 'Create a to-do list, for one of your groups or none.',
      get: 'A to-do list with its items.',
      patch: 'Change the title, description or group of a to-do list (owner only); If-Match honoured.',
      addItem: 'Add an item to a to-do list (owner, tick users, group members when the group may tick), optionally assigned to someone who may read it.',
      patchItem: 'Mark an item done or not done (owner, tick users, group members when the group may tick); If-Match honoured.',
    },
    listJson: todoListJson,
    itemJson: todoItemJson,
    detailJson: todoListDetailJson,
    listBody: todoListBody,
    listPatch: todoListPatch,
    itemBody: todoItemBody,
    itemPatch: todoItemPatch,
    listOut: (list, userId, sharedWith) => todoListOut(list, userId, sharedWith),
    current: (json) => ({ title: json.title, description: json.description, group: json.group, group_permission: json.group_permission ?? 'read' }),
    itemOut: todoItemOut,
  },
  live: todoLive,
};
