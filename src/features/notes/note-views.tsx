import type { Group, Notebook, Tag } from '../../db/schema.js';
import type { AudienceMember } from '../../platform/audience.js';
import { AudiencePanel } from '../../platform/views/audience.js';
import { Checkbox, CsrfField, Field, FieldErrors, FormAlert, Select, TextArea } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { Swatch } from '../../platform/views/color.js';
import { NoteBadges } from './badges.js';
import { Time } from '../../platform/views/controls.js';
import type { NoteRow } from './details.js';
import { CONTENT_MAX, PRIORITIES, TITLE_MAX } from './forms.js';
import { PinButton } from './list-views.js';
import { renderMarkdown } from './markdown.js';
import type { ReminderRow } from './reminders-repository.js';
import { NoteReminders, type ReminderFormState } from './reminders-views.js';

type NoteDetail = NoteRow & { content: string; created_at: number; audience: AudienceMember[] };

/** What the owner sees of a note's reminders: never given for anyone else. */
export interface OwnerReminders {
  items: ReminderRow[];
  form?: ReminderFormState | undefined;
}

export function NoteDetailPage({ ctx, note, reminders }: { ctx: ViewContext; note: NoteDetail; reminders?: OwnerReminders | undefined }) {
  const owned = note.owner_id === ctx.user!.id;
  return (
    <Layout ctx={ctx} title={note.title}>
      <article class="note">
        <header>
          <h1>{note.title}</h1>
          <NoteBadges ctx={ctx} note={note} viewerId={ctx.user!.id} ownerShown />
          <small class="note-dates">
            {ctx.t('note.written_by', { username: note.owner_username })} · {ctx.t('note.created_at')} <Time ms={note.created_at} timeZone={ctx.user?.timezone} /> · {ctx.t('note.updated_at')} <Time ms={note.updated_at} timeZone={ctx.user?.timezone} />
          </small>
          {owned ? <NoteActions ctx={ctx} note={note} /> : null}
        </header>
        {note.content.trim() ? (
          // Markdown rendered with raw HTML off and only http(s)/mailto links: see markdown.ts.
          <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(note.content) }} />
        ) : (
          <p class="empty-state">{ctx.t('note.no_text')}</p>
        )}
      </article>
      <AudiencePanel members={note.audience} viewerId={ctx.user!.id} kind="note" groupName={note.group_name} />
      {owned && reminders ? <NoteReminders ctx={ctx} noteId={note.id} reminders={reminders.items} form={reminders.form} /> : null}
      <p>
        <a href="/notes/">← {ctx.t('note.all_notes')}</a>
      </p>
    </Layout>
  );
}

/**
 * The owner's actions, at the top of the note only (under its title, before a long text), in
 * one compact row that wraps at 390 px. Delete is a link to its confirmation page (data-confirm).
 */
function NoteActions({ ctx, note }: { ctx: ViewContext; note: NoteDetail }) {
  return (
    <nav class="actions note-actions" aria-label={ctx.t('note.actions')}>
      <a href={`/notes/${note.id}/edit/`} role="button" class="small">{ctx.t('note.edit')}</a>
      <PinButton ctx={ctx} note={note} />
      <form method="post" action={`/notes/${note.id}/archive/`} class="inline">
        <CsrfField ctx={ctx} />
        <button type="submit" class="secondary outline small">{note.is_archived ? ctx.t('note.unarchive') : ctx.t('note.archive')}</button>
      </form>
      <a href={`/notes/${note.id}/delete/`} role="button" class="secondary outline small" data-confirm>{ctx.t('note.delete')}</a>
    </nav>
  );
}

export interface NoteFormChoices {
  notebooks: Pick<Notebook, 'id' | 'title'>[];
  tags: Tag[];
  groups: Pick<Group, 'id' | 'name'>[];
}

/** The form's values as typed: strings, and the list of ticked tag ids apart. */
export interface NoteFormValues {
  values: FormValues;
  tagIds: string[];
}

export function NoteFormPage({ ctx, choices, noteId, typed = { values: {}, tagIds: [] }, errors = {} }: {
  ctx: ViewContext;
  choices: NoteFormChoices;
  noteId?: number;
  typed?: NoteFormValues;
  errors?: FormErrors;
}) {
  const values = typed.values;
  const heading = noteId ? ctx.t('note_form.edit_heading') : ctx.t('note_form.new_heading');
  const ticked = new Set(typed.tagIds);
  return (
    <Layout ctx={ctx} title={heading}>
      <h1>{heading}</h1>
      {/* What was typed is not lost to a stray click on the navigation (app.js asks first). */}
      <form method="post" action={noteId ? `/notes/${noteId}/edit/` : '/notes/new/'} novalidate class="note-form" data-warn-unsaved="">
        <CsrfField ctx={ctx} />
        <FormAlert errors={errors} />
        <Field name="title" label={ctx.t('note_form.title')} value={values.title} errors={errors} required maxLength={TITLE_MAX} autofocus />
        <TextArea name="content" label={ctx.t('note_form.content')} value={values.content} errors={errors} rows={12} maxLength={CONTENT_MAX}
          help={ctx.t('note_form.content_help')} />
        <div class="grid">
          <Select name="notebook" label={ctx.t('note_form.notebook')} value={values.notebook} errors={errors}
            choices={[{ value: '', label: ctx.t('note_form.no_notebook') }, ...choices.notebooks.map((nb) => ({ value: String(nb.id), label: nb.title }))]} />
          <Select name="group" label={ctx.t('note_form.group')} value={values.group} errors={errors}
            help={ctx.t('note_form.group_help')}
            choices={[{ value: '', label: ctx.t('note_form.only_me') }, ...choices.groups.map((group) => ({ value: String(group.id), label: group.name }))]} />
          <Select name="priority" label={ctx.t('note_form.priority_label')} value={values.priority ?? '0'} errors={errors}
            choices={PRIORITIES.map((key, value) => ({ value: String(value), label: ctx.t(key) }))} />
        </div>
        <fieldset aria-describedby={errors.tags ? 'id_tags_errors' : undefined}>
          <legend>{ctx.t('note_form.tags')}</legend>
          {choices.tags.length === 0 ? (
            <small>
              {ctx.t('note_form.no_tags')} <a href="/tags/new/">{ctx.t('note_form.create_tag')}</a>.
            </small>
          ) : (
            choices.tags.map((tag) => (
              <label for={`id_tags_${tag.id}`} class="tag-choice">
                <input type="checkbox" id={`id_tags_${tag.id}`} name="tags" value={String(tag.id)} checked={ticked.has(String(tag.id))} />
                <Swatch color={tag.color} /> {tag.name}
              </label>
            ))
          )}
          <FieldErrors id="id_tags_errors" messages={errors.tags ?? []} />
        </fieldset>
        <fieldset>
          <legend>{ctx.t('note_form.options')}</legend>
          <Checkbox name="is_pinned" label={ctx.t('note_form.pinned')} checked={isTicked(values.is_pinned)} />
          <Checkbox name="is_archived" label={ctx.t('note_form.archived')} checked={isTicked(values.is_archived)} />
        </fieldset>
        <div class="actions">
          <button type="submit">{ctx.t('note_form.save')}</button>
          <a href={noteId ? `/notes/${noteId}/` : '/notes/'} role="button" class="secondary outline">{ctx.t('note_form.cancel')}</a>
        </div>
      </form>
    </Layout>
  );
}

function isTicked(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false' && value !== 'off';
}

/** Going back to a note that was deleted, for those who could read it (its owner, its group's members). */
export function DeletedNotePage({ ctx, deletedAt, byViewer }: { ctx: ViewContext; deletedAt: number; byViewer: boolean }) {
  const title = ctx.t('note.gone_title');
  return (
    <Layout ctx={ctx} title={title}>
      <article class="error-page">
        <header>
          <h1>{title}</h1>
        </header>
        <p>
          {ctx.t(byViewer ? 'note.gone_by_you' : 'note.gone_by_owner')} <Time ms={deletedAt} timeZone={ctx.user?.timezone} />
        </p>
        <footer>
          <a href="/notes/" role="button" class="secondary">{ctx.t('note.back_to_notes')}</a>
        </footer>
      </article>
    </Layout>
  );
}
