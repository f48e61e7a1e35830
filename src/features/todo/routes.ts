import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { formFailure, parseForm } from '../../platform/forms.js';
import type { Services } from '../../platform/services.js';
import { viewContext } from '../../platform/views/render.js';
import { pathId } from '../../platform/ids.js';
import { DeleteListPage, type FormState, ListIndexPage } from '../lists-sharing/views.js';
import { isOneOf } from '../../db/id-lists.js';
import { LiveListEvents } from '../lists-sharing/live-events.js';
import { liveListRoutes } from '../lists-sharing/live-routes.js';
import { todoApi } from './api.js';
import { todoLiveKind, todoLiveReader } from './live.js';
import { todoItemForm, todoListForm } from './forms.js';
import { TodoRepository } from './repository.js';
import { TodoService } from './service.js';
import { AssignedToMe, TODO, TodoFormPage, TodoListPage } from './views.js';

export const todoFeature: FastifyPluginAsync<Services> = async (app, services) => {
  const live = new LiveListEvents(services.hub, todoLiveReader, app.log);
  const todo = new TodoService(services.db, services.notifications, live);
  liveListRoutes(app, services, todoLiveKind(services.db));
  const userId = (request: FastifyRequest) => request.user!.id;
  const lists = new TodoRepository(services.db);
  services.linkCards.register({
    kind: 'todo',
    label: 'To-do list',
    path: '/todo/',
    visible: (viewerId, ids) =>
      lists.visibleLists(viewerId).where((eb) => isOneOf(services.db, eb.ref('todo_lists.id'), ids)).select(['todo_lists.id', 'todo_lists.title']).execute(),
  });

  /** The list page, with a failed share or item form shown again on it (400). */
  const showList = async (request: FastifyRequest, reply: FastifyReply, listId: number, forms: { share?: FormState; item?: FormState } = {}, status = 200) => {
    const page = await todo.page(userId(request), listId);
    return reply.render(TodoListPage({ ctx: viewContext(request), ...page, ...forms }), status);
  };

  app.get('/todo/', async (request, reply) => {
    const { lists, assigned } = await todo.index(userId(request));
    return reply.render(ListIndexPage({ ctx: viewContext(request), kind: TODO, lists, children: AssignedToMe({ items: assigned }) }));
  });

  app.get('/todo/new/', async (request, reply) => reply.render(TodoFormPage({ ctx: viewContext(request) })));

  app.post('/todo/new/', async (request, reply) => {
    const form = parseForm(todoListForm, request.body);
    if (!form.ok) return reply.render(TodoFormPage({ ctx: viewContext(request), values: form.values, errors: form.errors }), 400);
    const id = await todo.create(userId(request), form.data);
    request.flash('To-do list created.');
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
    request.flash('To-do list saved.');
    return reply.redirect(`/todo/${list.id}/`, 302);
  });

  app.get('/todo/:pk/delete/', async (request, reply) => {
    const list = await todo.ownedList(userId(request), pathId(request));
    return reply.render(DeleteListPage({ ctx: viewContext(request), kind: TODO, list }));
  });

  app.post('/todo/:pk/delete/', async (request, reply) => {
    await todo.delete(userId(request), pathId(request));
    request.flash('To-do list deleted.');
    return reply.redirect('/todo/', 302);
  });

  app.post('/todo/:pk/share/', async (request, reply) => {
    const listId = pathId(request);
    const outcome = await todo.share(userId(request), listId, request.body, request.user!.username);
    if (!outcome.ok) return showList(request, reply, listId, { share: outcome }, 400);
    request.flash(outcome.message);
    return reply.redirect(`/todo/${listId}/`, 302);
  });

  app.post('/todo/:pk/items/add/', async (request, reply) => {
    const listId = pathId(request);
    // The permission first: a reader's invalid form is a 404 too, never a page of errors.
    await todo.requireTick(userId(request), listId);
    const form = parseForm(todoItemForm, request.body);
    if (!form.ok) return showList(request, reply, listId, { item: form }, 400);
    const added = await todo.addAssignedItem(userId(request), listId, form.data);
    if (!added.ok) return showList(request, reply, listId, { item: formFailure(request.body, added.errors) }, 400);
    return reply.redirect(`/todo/${listId}/`, 302);
  });

  app.post('/todo/items/:pk/toggle/', async (request, reply) => {
    const listId = await todo.toggleItem(userId(request), pathId(request));
    return reply.redirect(`/todo/${listId}/`, 302);
  });

  app.post('/todo/items/:pk/delete/', async (request, reply) => {
    const listId = await todo.deleteItem(userId(request), pathId(request));
    request.flash('Item deleted.');
    return reply.redirect(`/todo/${listId}/`, 302);
  });

  todoApi(app, { db: services.db, notifications: services.notifications, live });
};
