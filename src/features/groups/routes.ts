import type { FormErrors } from '../../platform/forms.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.js';
import { parseForm } from '../../platform/forms.js';
import { parseId, pathId } from '../../platform/ids.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { groupsApi } from './api.js';
import { groupMembersApi } from './api-members.js';
import { addMemberForm, groupForm, memberActionForm, removeMemberForm } from './forms.js';
import { GroupsService } from './service.js';
import { GroupDeletePage, GroupFormPage, GroupListPage, GroupPage } from './views.js';
import { GroupEditPage, LeaveConfirmPage, RemoveMemberConfirmPage } from './manage-views.js';

export const groupPages: FastifyPluginAsync<Services> = async (app, { db, hub, notifications, objectKinds }) => {
  const service = new GroupsService(db, hub, notifications, objectKinds);
  const { groups } = service;
  groupsApi(app, service);
  groupMembersApi(app, service);

  /** Members only: everyone else gets the 404 of an absent group. */
  const memberGroup = async (request: FastifyRequest) => {
    const group = await groups.findMemberGroup(request.user!.id, pathId(request));
    if (!group) throw new NotFound();
    return group;
  };
  /** Owner only: a member who may see the group but not change it gets the same 404. */
  const ownedGroup = async (request: FastifyRequest) => {
    const group = await groups.findOwnedGroup(request.user!.id, pathId(request));
    if (!group) throw new NotFound();
    return group;
  };

  app.get('/groups/', async (request, reply) =>
    reply.render(GroupListPage({ ctx: viewContext(request), groups: await groups.listSummariesForMember(request.user!.id) })),
  );

  app.get('/groups/new/', async (request, reply) => reply.render(GroupFormPage({ ctx: viewContext(request) })));

  app.post('/groups/new/', async (request, reply) => {
    const form = parseForm(groupForm, request.body);
    if (!form.ok) return reply.render(GroupFormPage({ ctx: viewContext(request), values: form.values, errors: form.errors }), 400);
    const created = await service.create(request.user!.id, form.data.name);
    if (!created.ok) return reply.render(GroupFormPage({ ctx: viewContext(request), values: { name: form.data.name }, errors: created.errors }), 400);
    request.flash({ key: 'group.created', values: { name: created.value.name } });
    return reply.redirect(`/groups/${created.value.id}/`, 302);
  });

  app.get('/groups/:pk/', async (request, reply) => {
    const page = await groups.findMemberGroupPage(request.user!.id, pathId(request), objectKinds);
    if (!page) throw new NotFound();
    return reply.render(GroupPage({ ctx: viewContext(request), ...page }));
  });

  // The members form's address, opened with a GET (its error page's address, entered again): the group's page.
  app.get('/groups/:pk/members/', async (request, reply) => reply.redirect(`/groups/${(await memberGroup(request)).id}/`, 302));

  app.post('/groups/:pk/members/', async (request, reply) => {
    const group = await ownedGroup(request);
    const showErrors = async (errors: FormErrors, values = {}) => {
      const page = (await groups.findMemberGroupPage(request.user!.id, group.id, objectKinds))!;
      return reply.render(GroupPage({ ctx: viewContext(request), ...page, values, errors }), 400);
    };
    const action = parseForm(memberActionForm, request.body);
    if (!action.ok) return showErrors({ __all__: action.errors.action ?? ['group_form.action_required'] });
    if (action.data.action === 'add') {
      const form = parseForm(addMemberForm, request.body);
      if (!form.ok) return showErrors(form.errors, form.values);
      const added = await service.addMember(group, form.data.username, request.user!.username);
      if (!added.ok) return showErrors(added.errors, { username: form.data.username });
      request.flash({ key: 'group.member_added', values: { username: added.value.username, group: group.name } });
    } else {
      const form = parseForm(removeMemberForm, request.body);
      if (!form.ok) return showErrors(form.errors);
      const removed = await service.removeMember(group, form.data.user_pk);
      if (!removed.ok) return showErrors(removed.errors);
      request.flash('group.member_removed');
    }
    return reply.redirect(`/groups/${group.id}/`, 302);
  });

  app.get('/groups/:pk/edit/', async (request, reply) => reply.render(GroupEditPage({ ctx: viewContext(request), group: await ownedGroup(request) })));

  app.post('/groups/:pk/edit/', async (request, reply) => {
    const group = await ownedGroup(request);
    const form = parseForm(groupForm, request.body);
    if (!form.ok) return reply.render(GroupEditPage({ ctx: viewContext(request), group, values: form.values, errors: form.errors }), 400);
    const renamed = await service.rename(group, form.data.name);
    if (!renamed.ok) return reply.render(GroupEditPage({ ctx: viewContext(request), group, values: { name: form.data.name }, errors: renamed.errors }), 400);
    request.flash({ key: 'group.renamed', values: { name: form.data.name } });
    return reply.redirect(`/groups/${group.id}/`, 302);
  });

  /** The confirmation of a removal: the owner's, of a member who is not the owner; 404 otherwise. */
  app.get('/groups/:pk/members/:user_pk/remove/', async (request, reply) => {
    const group = await ownedGroup(request);
    const memberId = parseId((request.params as { user_pk?: string }).user_pk);
    if (memberId === null || memberId === group.owner_id) throw new NotFound();
    const [member] = await groups.pageMembers(request.user!.id, group.id, 1, undefined, memberId);
    if (!member) throw new NotFound();
    return reply.render(RemoveMemberConfirmPage({ ctx: viewContext(request), group, member }));
  });

  /** The owner cannot leave (there would be no one to manage the group): not a change they may make. */
  const leavableGroup = async (request: FastifyRequest) => {
    const group = await memberGroup(request);
    if (group.owner_id === request.user!.id) throw new NotFound();
    return group;
  };

  app.get('/groups/:pk/leave/', async (request, reply) => reply.render(LeaveConfirmPage({ ctx: viewContext(request), group: await leavableGroup(request) })));

  app.post('/groups/:pk/leave/', async (request, reply) => {
    const group = await leavableGroup(request);
    await service.leave(group.id, request.user!.id);
    request.flash({ key: 'group.left', values: { group: group.name } }, 'info');
    return reply.redirect('/groups/', 302);
  });

  app.get('/groups/:pk/delete/', async (request, reply) => reply.render(GroupDeletePage({ ctx: viewContext(request), group: await ownedGroup(request) })));

  app.post('/groups/:pk/delete/', async (request, reply) => {
    const group = await ownedGroup(request);
    await service.delete(group);
    request.flash({ key: 'group.deleted', values: { name: group.name } }, 'info');
    return reply.redirect('/groups/', 302);
  });
};
