import type { ComponentChildren } from 'preact';
import { CsrfField, FieldErrors, type FormErrors } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';

// Form controls the platform's Field (an <input>) does not cover, with the same wiring: a label,
// errors next to the control, linked by aria-describedby. Shared by notes, notebooks and tags.

function describedBy(id: string, messages: string[], help?: ComponentChildren): string | undefined {
  return [help ? `${id}_help` : '', messages.length ? `${id}_errors` : ''].filter(Boolean).join(' ') || undefined;
}

interface ControlProps {
  name: string;
  label: string;
  errors?: FormErrors;
  help?: ComponentChildren;
}

export function TextArea({ name, label, value, errors = {}, help, rows = 12, maxLength }: ControlProps & { value?: string | undefined; rows?: number; maxLength?: number }) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <label for={id}>
      {label}
      <textarea id={id} name={name} rows={rows} maxLength={maxLength} aria-invalid={messages.length ? 'true' : undefined} aria-describedby={describedBy(id, messages, help)}>
        {value ?? ''}
      </textarea>
      {help ? <small id={`${id}_help`}>{help}</small> : null}
      <FieldErrors id={`${id}_errors`} messages={messages} />
    </label>
  );
}

export interface Choice {
  value: string;
  label: string;
}

export function Select({ name, label, value, choices, errors = {}, help }: ControlProps & { value?: string | undefined; choices: Choice[] }) {
  const id = `id_${name}`;
  const messages = errors[name] ?? [];
  return (
    <label for={id}>
      {label}
      <select id={id} name={name} aria-invalid={messages.length ? 'true' : undefined} aria-describedby={describedBy(id, messages, help)}>
        {choices.map((choice) => (
          <option value={choice.value} selected={choice.value === (value ?? '')}>
            {choice.label}
          </option>
        ))}
      </select>
      {help ? <small id={`${id}_help`}>{help}</small> : null}
      <FieldErrors id={`${id}_errors`} messages={messages} />
    </label>
  );
}

export function Checkbox({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label for={`id_${name}`}>
      <input type="checkbox" id={`id_${name}`} name={name} value="on" checked={checked} /> {label}
    </label>
  );
}

/** GET on a /delete/ path: says what will go and asks for the POST. */
export function DeleteConfirmPage({ ctx, kind, name, action, cancel, consequence }: {
  ctx: ViewContext;
  kind: string;
  name: string;
  action: string;
  cancel: string;
  consequence: string;
}) {
  return (
    <Layout ctx={ctx} title={`Delete ${kind}`}>
      <article class="narrow">
        <h1>Delete this {kind}?</h1>
        <p>
          <strong>{name}</strong>
        </p>
        <p>{consequence}</p>
        <form method="post" action={action}>
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="danger">Delete</button>
            <a href={cancel} role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

export function Time({ ms }: { ms: number }) {
  const iso = new Date(ms).toISOString();
  return <time datetime={iso}>{iso.replace('T', ' ').slice(0, 16)} UTC</time>;
}
