import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { formFailure, parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { pathId } from '../../platform/ids.js';
import { DeleteListPage, type FormState, ListIndexPage } from '../lists-sharing/views.js';
import { LiveListEvents } from '../lists-sharing/live-events.js';
import { liveListRoutes } from '../lists-sharing/live-routes.js';
import { todoApi } from './api.js';
import { todoLiveKind, todoLiveReader } from './live.js';
import { todoItemForm, todoListForm } from './forms.js';
import { TodoRepository } from './repository.js';
import { TodoService } from './service.js';
import { AssignedToMe, TODO, TodoFormPage, TodoListPage } from './views.js';
import { addAnchor, DeleteItemPage, itemAnchor, itemsAnchor } from '../lists-sharing/item-pages.js';
import { EditTodoItemPage } from './item-views.js';

export const todoFeature: FastifyPluginAsync<Services> = async (app, services) => {
  services.sessions.addNavigationLink({ label: 'nav.todo', href: '/todo/' });
  const live = new LiveListEvents(services.hub, todoLiveReader, app.log);
  const todo = new TodoService(services.db, services.notifications, live);
  liveListRoutes(app, services, todoLiveKind(services.db));
  const userId = (request: FastifyRequest) => request.user!.id;
  const lists = new TodoRepository(services.db);
  services.objectKinds.register({
    kind: 'todo',
    noun: 'todo.card_label',
    path: '/todo/',
    visible: (viewer) => lists.visibleLists(viewer).select(['todo_lists.id', 'todo_lists.title', 'todo_lists.updated_at']),
  });

  /** The list page, with a failed share or item form shown again on it (400). */
  const showList = async (request: FastifyRequest, reply: FastifyReply, listId: number, forms: { share?: FormState; item?: FormState } = {}, status = 200) => {
    const page = await todo.page(userId(request), listId);
    return reply.render(TodoListPage({ ctx: viewContext(request), ...page, ...forms }), status);
  };

  app.get('/todo/', async (request, reply) => {
    const { lists, assigned } = await todo.index(userId(request));
    const ctx = viewContext(request);
    return reply.render(ListIndexPage({ ctx, kind: TODO, lists, children: AssignedToMe({ ctx, items: assigned }) }));
  });

  app.get('/todo/new/', async (request, reply) => reply.render(TodoFormPage({ ctx: viewContext(request) })));

  app.post('/todo/new/', async (request, reply) => {
    const form = parseForm(todoListForm, request.body);
    if (!form.ok) return reply.render(TodoFormPage({ ctx: viewContext(request), values: form.values, errors: form.errors }), 400);
    const id = await todo.create(userId(request), form.data);
    request.flash('todo.created');
    return reply.redirect(`/todo/${id}/`, 302);
  });

  app.get('/todo/:pk/', async (request, reply) => showList(request, reply, pathId(request)));

  app.get('/todo/:pk/edit/', async (request, reply) => {
    const list = await todo.ownedList(userId(request), pathId(request));
    return reply.render(TodoFormPage({ ctx: viewContext(request), list, values: { title: list.title, description: list.description } }));
  });

  app.post('/todo/:pk/edit/', async (request, reply) => {
    const list = await todo.ownedList(userId(request), pathId(request));
    const form = parseForm(todoListForm, request.body);
    if (!form.ok) return reply.render(TodoFormPage({ ctx: viewContext(request), list, values: form.values, errors: form.errors }), 400);
    await todo.update(userId(request), list.id, form.data);
    request.flash('todo.saved');
    return reply.redirect(`/todo/${list.id}/`, 302);
  });

  app.get('/todo/:pk/delete/', async (request, reply) => {
    const list = await todo.ownedList(userId(request), pathId(request));
    return reply.render(DeleteListPage({ ctx: viewContext(request), kind: TODO, list }));
  });

  app.post('/todo/:pk/delete/', async (request, reply) => {
    await todo.delete(userId(request), pathId(request));
    request.flash('todo.deleted');
    return reply.redirect('/todo/', 302);
  });

  app.post('/todo/:pk/share/', async (request, reply) => {
    const listId = pathId(request);
    const outcome = await todo.share(userId(request), listId, request.body, request.user!.username);
    if (!outcome.ok) return showList(request, reply, listId, { share: outcome }, 400);
    request.flash(outcome.message);
    return reply.redirect(`/todo/${listId}/`, 302);
  });

  // The add form's page is the list: a GET here (a reload of a failed add) goes back to it.
  app.get('/todo/:pk/items/add/', async (request, reply) => reply.redirect(`/todo/${pathId(request)}/`, 302));

  app.post('/todo/:pk/items/add/', async (request, reply) => {
    const listId = pathId(request);
    // The permission first: a reader's invalid form is a 404 too, never a page of errors.
    await todo.requireTick(userId(request), listId);
    const form = parseForm(todoItemForm, request.body);
    if (!form.ok) return showList(request, reply, listId, { item: form }, 400);
    const added = await todo.addAssignedItem(userId(request), listId, form.data);
    if (!added.ok) return showList(request, reply, listId, { item: formFailure(request.body, added.errors) }, 400);
    return reply.redirect(addAnchor(TODO, listId), 302);
  });

  app.post('/todo/items/:pk/toggle/', async (request, reply) => {
    const itemId = pathId(request);
    const listId = await todo.toggleItem(userId(request), itemId);
    return reply.redirect(itemAnchor(TODO, listId, itemId), 302);
  });

  /** The edit page of an item of a list the caller owns (anyone else: 404, as for none). */
  const showItemForm = async (request: FastifyRequest, reply: FastifyReply, state: FormState = {}, status = 200) => {
    const item = await todo.ownedItem(userId(request), pathId(request));
    const page = await todo.page(userId(request), item.list_id);
    const values = state.values ?? { text: item.text, due_date: item.due_date ?? '', assignee: item.assignee_name ?? '' };
    return reply.render(EditTodoItemPage({ ctx: viewContext(request), item, listTitle: page.list.title, assignees: page.assignees, values, errors: state.errors }), status);
  };

  app.get('/todo/items/:pk/edit/', async (request, reply) => showItemForm(request, reply));

  app.post('/todo/items/:pk/edit/', async (request, reply) => {
    const itemId = pathId(request);
    await todo.ownedItem(userId(request), itemId);
    const form = parseForm(todoItemForm, request.body);
    if (!form.ok) return showItemForm(request, reply, form, 400);
    const edited = await todo.editItem(userId(request), itemId, form.data);
    if (!edited.ok) return showItemForm(request, reply, formFailure(request.body, edited.errors), 400);
    request.flash('lists.item_saved');
    return reply.redirect(itemAnchor(TODO, edited.value, itemId), 302);
  });

  app.get('/todo/items/:pk/delete/', async (request, reply) => {
    const item = await todo.ownedItem(userId(request), pathId(request));
    return reply.render(DeleteItemPage({ ctx: viewContext(request), kind: TODO, item: { id: item.id, list_id: item.list_id, name: item.text } }));
  });

  app.post('/todo/items/:pk/delete/', async (request, reply) => {
    const listId = await todo.deleteItem(userId(request), pathId(request));
    request.flash('lists.item_deleted');
    return reply.redirect(itemsAnchor(TODO, listId), 302);
  });

  todoApi(app, { db: services.db, notifications: services.notifications, live });
};
