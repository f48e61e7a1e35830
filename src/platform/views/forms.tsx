import type { ComponentChildren } from 'preact';
import type { ViewContext } from './render.js';

/** Field name -> messages. `__all__` holds errors that belong to the whole form (Django's name). */
export type FormErrors = Record<string, string[]>;
export type FormValues = Record<string, string | undefined>;

export function CsrfField({ ctx }: { ctx: ViewContext }) {
  return <input type="hidden" name="csrfmiddlewaretoken" value={ctx.csrfToken()} />;
}

export function FormAlert({ errors }: { errors: FormErrors }) {
  const general = errors.__all__ ?? [];
  if (general.length === 0) return null;
  return (
    <div class="form-alert" role="alert">
      {general.map((message) => (
        <p>{message}</p>
      ))}
    </div>
  );
}

interface FieldProps {
  name: string;
  label: string;
  type?: string;
  value?: string | undefined;
  errors?: FormErrors;
  required?: boolean;
  autocomplete?: string;
  help?: ComponentChildren;
  maxLength?: number;
  autofocus?: boolean;
}

/**
 * A labelled input with its help text and its errors next to it, linked for screen readers. The
 * label holds only the label text, so a field's accessible name is not mixed up with its help.
 */
export function Field({ name, label, type = 'text', value, errors = {}, required, autocomplete, help, maxLength, autofocus }: FieldProps) {
  const id = `id_${name}`;
  const fieldErrors = errors[name] ?? [];
  const describedBy = [help ? `${id}_help` : '', fieldErrors.length ? `${id}_errors` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={type === 'password' ? undefined : value}
        required={required}
        autocomplete={autocomplete}
        maxLength={maxLength}
        autofocus={autofocus}
        aria-invalid={fieldErrors.length ? 'true' : undefined}
        aria-describedby={describedBy || undefined}
      />
      <FieldErrors id={`${id}_errors`} messages={fieldErrors} />
      {help ? <small id={`${id}_help`}>{help}</small> : null}
    </div>
  );
}

export function FieldErrors({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} class="field-errors">
      {messages.map((message) => (
        <li>{message}</li>
      ))}
    </ul>
  );
}
