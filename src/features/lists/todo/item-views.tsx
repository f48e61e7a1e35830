import { Field, Select } from '../../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../../platform/forms.js';
import type { ViewContext } from '../../../platform/views/context.js';
import type { MessageKey } from '../../../platform/i18n/index.js';
import { EditItemPage } from '../item-pages.js';
import type { FormState } from '../views.js';
import { ITEM_TEXT_MAX } from './forms.js';
import { TODO } from './kind.js';

/** The item fields, named in the error summary as their labels say. */
export const ITEM_LABELS: Record<string, MessageKey> = { text: 'todo.text_label', due_date: 'todo.due_label', assignee: 'todo.assignee_label' };

/** An item's fields: the add form and the edit page share them. */
export function ItemFields({ ctx, values, errors, assignees }: { ctx: ViewContext; values: FormValues; errors: FormErrors; assignees: { username: string }[] }) {
  const choices = [{ value: '', label: ctx.t('todo.nobody') }, ...assignees.map((person) => ({ value: person.username, label: person.username }))];
  return (
    <div class="grid">
      <Field name="text" label={ctx.t('todo.text_label')} value={values.text} errors={errors} required maxLength={ITEM_TEXT_MAX} />
      <Field name="due_date" label={ctx.t('todo.due_optional')} type="date" value={values.due_date} errors={errors} />
      <Select name="assignee" label={ctx.t('todo.assignee_optional')} value={values.assignee} choices={choices} errors={errors} help={ctx.t('todo.assignee_help')} />
    </div>
  );
}

export function EditTodoItemPage({ ctx, item, listTitle, assignees, values = {}, errors = {} }: {
  ctx: ViewContext; item: { id: number; list_id: number; text: string }; listTitle: string; assignees: { username: string }[];
} & FormState) {
  return (
    <EditItemPage ctx={ctx} kind={TODO} listId={item.list_id} listTitle={listTitle} itemName={item.text} action={`/todo/items/${item.id}/edit/`} labels={ITEM_LABELS} errors={errors}>
      <ItemFields ctx={ctx} values={values} errors={errors} assignees={assignees} />
    </EditItemPage>
  );
}
