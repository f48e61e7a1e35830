import { Field, type FormErrors, type FormValues, Select } from '../../platform/views/forms.js';
import type { ViewContext } from '../../platform/views/render.js';
import { EditItemPage } from '../lists-sharing/item-pages.js';
import type { FormState } from '../lists-sharing/views.js';
import { ITEM_TEXT_MAX } from './forms.js';
import { TODO } from './kind.js';

/** The item fields, named in the error summary as their labels say. */
export const ITEM_LABELS: Record<string, string> = { text: 'What needs doing', due_date: 'Due date', assignee: 'Assigned to' };

/** An item's fields: the add form and the edit page share them. */
export function ItemFields({ values, errors, assignees }: { values: FormValues; errors: FormErrors; assignees: { username: string }[] }) {
  const choices = [{ value: '', label: 'Nobody' }, ...assignees.map((person) => ({ value: person.username, label: person.username }))];
  return (
    <div class="grid">
      <Field name="text" label="What needs doing" value={values.text} errors={errors} required maxLength={ITEM_TEXT_MAX} />
      <Field name="due_date" label="Due date (optional)" type="date" value={values.due_date} errors={errors} />
      <Select name="assignee" label="Assigned to (optional)" value={values.assignee} choices={choices} errors={errors} help="Someone who can see the list." />
    </div>
  );
}

export function EditTodoItemPage({ ctx, item, listTitle, assignees, values = {}, errors = {} }: {
  ctx: ViewContext; item: { id: number; list_id: number; text: string }; listTitle: string; assignees: { username: string }[];
} & FormState) {
  return (
    <EditItemPage ctx={ctx} kind={TODO} listId={item.list_id} listTitle={listTitle} itemName={item.text} action={`/todo/items/${item.id}/edit/`} labels={ITEM_LABELS} errors={errors}>
      <ItemFields values={values} errors={errors} assignees={assignees} />
    </EditItemPage>
  );
}
