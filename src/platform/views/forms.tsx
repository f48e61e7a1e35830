import type { ComponentChildren } from 'preact';
import { type Message, say } from '../i18n/index.js';
import type { ViewContext } from './context.js';
import type { FormErrors } from '../forms.js';

export function CsrfField({ ctx }: { ctx: ViewContext }) {
  return <input type="hidden" name="csrfmiddlewaretoken" value={ctx.csrfToken()} />;
}

export function FormAlert({ errors }: { errors: FormErrors }) {
  const general = errors.__all__ ?? [];
  if (general.length === 0) return null;
  return (
    <div class="form-alert" role="alert">
      {general.map((message) => (
        <p>{say(message)}</p>
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
  /** The keyboard a phone shows: `decimal` for amounts. */
  inputMode?: 'decimal' | 'numeric' | 'email' | 'tel' | 'url';
  /**
   * A password field normally comes back empty. A new password that was fine, shown again only
   * because its confirmation did not match, is kept (on a no-store page), so that only the
   * confirmation has to be typed again.
   */
  keepPassword?: boolean;
}

/** The ids a control's aria-describedby names: its help, then its errors. */
function describedBy(id: string, messages: Message[], help?: ComponentChildren): string | undefined {
  return [help ? `${id}_help` : '', messages.length ? `${id}_errors` : ''].filter(Boolean).join(' ') || undefined;
}

/**
 * Label, control, errors, help: the errors sit right under the control they are about. The
 * label holds only the label text, so a control's accessible name is not mixed up with its help.
 */
function Control({ id, label, messages, help, children }: { id: string; label: string; messages: Message[]; help?: ComponentChildren; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      <FieldErrors id={`${id}_errors`} messages={messages} />
      {help ? <small id={`${id}_help`}>{help}</small> : null}
    </div>
  );
}

/** A labelled input with its help text and its errors next to it, linked for screen readers. */
export function Field({ name, label, type = 'text', value, errors = {}, required, autocomplete, help, maxLength, autofocus, inputMode, keepPassword }: FieldProps) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <Control id={id} label={label} messages={messages} help={help}>
      <input
        id={id}
        name={name}
        type={type}
        value={type === 'password' && !(keepPassword && !errors[name]) ? undefined : value}
        required={required}
        autocomplete={autocomplete}
        maxLength={maxLength}
        autofocus={autofocus}
        inputMode={inputMode}
        aria-invalid={messages.length ? 'true' : undefined}
        aria-describedby={describedBy(id, messages, help)}
      />
    </Control>
  );
}

interface ControlProps {
  name: string;
  label: string;
  errors?: FormErrors;
  help?: ComponentChildren;
}

export function TextArea({ name, label, value, errors = {}, help, rows = 6, maxLength, required }: ControlProps & {
  value?: string | undefined;
  rows?: number;
  maxLength?: number;
  required?: boolean;
}) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <Control id={id} label={label} messages={messages} help={help}>
      <textarea id={id} name={name} rows={rows} maxLength={maxLength} required={required}
        aria-invalid={messages.length ? 'true' : undefined} aria-describedby={describedBy(id, messages, help)}>
        {value ?? ''}
      </textarea>
    </Control>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** Choices under a heading (an <optgroup>): the common ones first, say, then the rest. */
export interface ChoiceGroup {
  group: string;
  choices: Choice[];
}

/** A labelled select; the choice whose value equals `value` (or the empty one) is selected. */
export function Select({ name, label, value, choices, errors = {}, help }: ControlProps & { value?: string | undefined; choices: (Choice | ChoiceGroup)[] }) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  const option = (choice: Choice) => (
    <option value={choice.value} selected={choice.value === (value ?? '')}>
      {choice.label}
    </option>
  );
  return (
    <Control id={id} label={label} messages={messages} help={help}>
      <select id={id} name={name} aria-invalid={messages.length ? 'true' : undefined} aria-describedby={describedBy(id, messages, help)}>
        {choices.map((choice) => ('group' in choice ? <optgroup label={choice.group}>{choice.choices.map(option)}</optgroup> : option(choice)))}
      </select>
    </Control>
  );
}

/** A checkbox with its label beside it; ticked, it sends `on`. */
export function Checkbox({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label for={`id_${name}`} class="checkbox">
      <input type="checkbox" id={`id_${name}`} name={name} value="on" checked={checked} /> {label}
    </label>
  );
}

export function FieldErrors({ id, messages }: { id: string; messages: Message[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} class="field-errors">
      {messages.map((message) => (
        <li>{say(message)}</li>
      ))}
    </ul>
  );
}
