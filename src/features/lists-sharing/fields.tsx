import type { FormErrors } from '../../platform/views/forms.js';
import { FieldErrors } from '../../platform/views/forms.js';

// Form controls the platform has no component for yet, labelled and linked to their errors like Field.

function describedBy(id: string, errors: string[], help?: string): string | undefined {
  return [help ? `${id}_help` : '', errors.length ? `${id}_errors` : ''].filter(Boolean).join(' ') || undefined;
}

export function TextArea({ name, label, value, errors = {}, maxLength, help }: {
  name: string; label: string; value?: string | undefined; errors?: FormErrors; maxLength?: number; help?: string;
}) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <label for={id}>
      {label}
      <textarea id={id} name={name} rows={3} maxLength={maxLength} aria-invalid={messages.length ? 'true' : undefined}
        aria-describedby={describedBy(id, messages, help)}>
        {value ?? ''}
      </textarea>
      {help ? <small id={`${id}_help`}>{help}</small> : null}
      <FieldErrors id={`${id}_errors`} messages={messages} />
    </label>
  );
}

export function Select({ name, label, value, options, errors = {}, emptyLabel, help }: {
  name: string; label: string; value?: string | undefined; options: { value: string; label: string }[];
  errors?: FormErrors; emptyLabel: string; help?: string;
}) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <label for={id}>
      {label}
      <select id={id} name={name} aria-invalid={messages.length ? 'true' : undefined} aria-describedby={describedBy(id, messages, help)}>
        <option value="" selected={!value}>{emptyLabel}</option>
        {options.map((option) => (
          <option value={option.value} selected={option.value === value}>{option.label}</option>
        ))}
      </select>
      {help ? <small id={`${id}_help`}>{help}</small> : null}
      <FieldErrors id={`${id}_errors`} messages={messages} />
    </label>
  );
}
