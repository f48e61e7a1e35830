import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Notebook } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { formValues, parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { pathId } from '../../platform/ids.js';
import { notebooksApi } from './api.js';
import { notebookForm } from './forms.js';
import { NotebooksRepository, titleTaken, unlessTitleTaken } from './repository.js';
import { NotebookFormPage, NotebookListPage } from './views.js';

type PkParams = { Params: { pk: string } };

/** /notebooks/: the caller's own notebooks only; anyone else's is a 404 like a missing one. */
export const notebookPages: FastifyPluginAsync<Services> = async (app, { db }) => {
  const notebooks = new NotebooksRepository(db);

  const ownedOr404 = async (request: FastifyRequest): Promise<Notebook> => {
    const notebook = await notebooks.findOwned(request.user!.id, pathId(request));
    if (!notebook) throw new NotFound();
    return notebook;
  };

  app.get('/notebooks/', async (request, reply) =>
    reply.render(NotebookListPage({ ctx: viewContext(request), notebooks: await notebooks.listOwned(request.user!.id) })),
  );

  app.get('/notebooks/new/', async (request, reply) => reply.render(NotebookFormPage({ ctx: viewContext(request) })));

  app.post('/notebooks/new/', async (request, reply) => {
    const form = parseForm(notebookForm, request.body);
    if (!form.ok) return reply.render(NotebookFormPage({ ctx: viewContext(request), values: form.values, errors: form.errors }), 400);
    const saved = await unlessTitleTaken(() => notebooks.insert(request.user!.id, form.data));
    if (!saved.ok) return reply.render(NotebookFormPage({ ctx: viewContext(request), values: formValues(request.body), errors: { title: [titleTaken(form.data.title)] } }), 400);
    const notebook = saved.value;
    request.flash({ key: 'notebook.created', values: { title: notebook.title } });
    return reply.redirect(`/notebooks/${notebook.id}/`, 302);
  });

  app.get<PkParams>('/notebooks/:pk/edit/', async (request, reply) => {
    const notebook = await ownedOr404(request);
    return reply.render(NotebookFormPage({ ctx: viewContext(request), notebook }));
  });

  app.post<PkParams>('/notebooks/:pk/edit/', async (request, reply) => {
    const notebook = await ownedOr404(request);
    const form = parseForm(notebookForm, request.body);
    if (!form.ok) return reply.render(NotebookFormPage({ ctx: viewContext(request), notebook, values: form.values, errors: form.errors }), 400);
    const saved = await unlessTitleTaken(() => notebooks.updateOwned(request.user!.id, notebook.id, form.data));
    if (!saved.ok) return reply.render(NotebookFormPage({ ctx: viewContext(request), notebook, values: formValues(request.body), errors: { title: [titleTaken(form.data.title)] } }), 400);
    if (!saved.value) throw new NotFound();
    request.flash({ key: 'notebook.saved', values: { title: form.data.title } });
    return reply.redirect('/notebooks/', 302);
  });

  app.get<PkParams>('/notebooks/:pk/delete/', async (request, reply) => {
    const notebook = await ownedOr404(request);
    const ctx = viewContext(request);
    return reply.render(
      DeleteConfirmPage({
        ctx,
        kind: 'notebook',
        name: notebook.title,
        action: `/notebooks/${notebook.id}/delete/`,
        cancel: `/notebooks/${notebook.id}/`,
        consequence: ctx.t('notebook.delete_consequence'),
      }),
    );
  });

  app.post<PkParams>('/notebooks/:pk/delete/', async (request, reply) => {
    if (!(await notebooks.deleteOwned(request.user!.id, pathId(request)))) throw new NotFound();
    request.flash('notebook.deleted');
    return reply.redirect('/notebooks/', 302);
  });

  notebooksApi(app, { db });
};
