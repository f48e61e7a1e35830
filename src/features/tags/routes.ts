import type { FastifyPluginAsync } from 'fastify';
import { parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { pathId } from '../../platform/ids.js';
import { tagsApi } from './api.js';
import { tagForm } from './forms.js';
import { TagsService } from './service.js';
import { TagFormPage, TagListPage } from './views.js';

type PkParams = { Params: { pk: string } };

/** /tags/: the caller's own tags only; anyone else's tag is a 404 like a missing one. */
export const tagPages: FastifyPluginAsync<Services> = async (app, { db }) => {
  const service = new TagsService(db);

  app.get('/tags/', async (request, reply) => {
    const tags = await service.tags.listOwnedWithCounts(request.user!.id);
    return reply.render(TagListPage({ ctx: viewContext(request), tags }));
  });

  app.get('/tags/new/', async (request, reply) => reply.render(TagFormPage({ ctx: viewContext(request) })));

  app.post('/tags/new/', async (request, reply) => {
    const form = parseForm(tagForm, request.body);
    const ctx = viewContext(request);
    if (!form.ok) return reply.render(TagFormPage({ ctx, values: form.values, errors: form.errors }), 400);
    const saved = await service.create(request.user!.id, form.data);
    if (!saved.ok) return reply.render(TagFormPage({ ctx, values: form.data, errors: saved.errors }), 400);
    request.flash({ key: 'tag.created', values: { name: form.data.name } });
    return reply.redirect('/tags/', 302);
  });

  app.get<PkParams>('/tags/:pk/edit/', async (request, reply) => {
    const tag = await service.ownedOr404(request.user!.id, pathId(request));
    return reply.render(TagFormPage({ ctx: viewContext(request), tag }));
  });

  app.post<PkParams>('/tags/:pk/edit/', async (request, reply) => {
    const tag = await service.ownedOr404(request.user!.id, pathId(request));
    const form = parseForm(tagForm, request.body);
    const ctx = viewContext(request);
    if (!form.ok) return reply.render(TagFormPage({ ctx, tag, values: form.values, errors: form.errors }), 400);
    const saved = await service.update(request.user!.id, tag.id, form.data);
    if (!saved.ok) return reply.render(TagFormPage({ ctx, tag, values: form.data, errors: saved.errors }), 400);
    request.flash({ key: 'tag.saved', values: { name: form.data.name } });
    return reply.redirect('/tags/', 302);
  });

  app.get<PkParams>('/tags/:pk/delete/', async (request, reply) => {
    const tag = await service.ownedOr404(request.user!.id, pathId(request));
    const ctx = viewContext(request);
    return reply.render(
      DeleteConfirmPage({
        ctx,
        kind: 'tag',
        name: tag.name,
        action: `/tags/${tag.id}/delete/`,
        cancel: '/tags/',
        consequence: ctx.t('tag.delete_consequence'),
      }),
    );
  });

  app.post<PkParams>('/tags/:pk/delete/', async (request, reply) => {
    await service.delete(request.user!.id, pathId(request));
    request.flash('tag.deleted');
    return reply.redirect('/tags/', 302);
  });

  tagsApi(app, { db });
};
