import { z } from 'zod';
import { type Message, type MessageKey, type MessageValues, msg } from './i18n/index.js';

/**
 * Field name -> messages. `__all__` holds errors that belong to the whole form (Django's name).
 * Catalogue keys with their values: they are put in the page's language where they are shown.
 */
export type FormErrors = Record<string, Message[]>;
export type FormValues = Record<string, string | undefined>;

/** A change a form asked for: done, with its result, or refused with messages per field (nothing changed). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FormErrors; values: FormValues };

/** The submitted values as strings, to show the form again exactly as it was typed. */
export function formValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (!body || typeof body !== 'object') return values;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'csrfmiddlewaretoken') continue;
    if (typeof value === 'string') values[key] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') values[key] = value[0];
  }
  return values;
}

/**
 * An issue's message as a catalogue key with the bounds it broke (`{min}`, `{max}`): schemas name
 * their errors with msg('form.required'), and the page shows them in its language.
 */
export function issueMessage(issue: z.core.$ZodIssue): Message {
  const values: MessageValues = {};
  if ('minimum' in issue && typeof issue.minimum === 'number') values.min = issue.minimum;
  if ('maximum' in issue && typeof issue.maximum === 'number') values.max = issue.maximum;
  return { key: issue.message as MessageKey, values };
}

/** Validates a form body against its schema; on failure, messages per field (`__all__` for the form). */
export function parseForm<S extends z.ZodType>(schema: S, body: unknown): FormResult<z.infer<S>> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return { ok: true, data: result.data };
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : '__all__';
    (errors[field] ??= []).push(issueMessage(issue));
  }
  return { ok: false, errors, values: formValues(body) };
}

export function formFailure(body: unknown, errors: FormErrors): { ok: false; errors: FormErrors; values: FormValues } {
  return { ok: false, errors, values: formValues(body) };
}

/**
 * A text field as most forms have it, with the messages every feature shares: trimmed, at most
 * `max` characters (`form.max_chars`), required (`form.required`) unless `min` is 0, at least
 * `min` characters past 1 (`form.min_chars`); anything but text is `form.invalid`.
 */
export function textField(max: number, min = 1) {
  const text = z.string({ error: msg('form.invalid') }).trim();
  if (min === 0) return text.max(max, msg('form.max_chars'));
  return text.min(min, min === 1 ? msg('form.required') : msg('form.min_chars')).max(max, msg('form.max_chars'));
}

/**
 * An HTML checkbox: ticked when sent with a value ("on"), unticked when absent, which is how a
 * browser sends an unticked box; so a form posted without the field (an older page) is unticked.
 */
export function checkboxField() {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw) => !['', '0', 'false', 'off'].includes([raw ?? ''].flat()[0]?.trim().toLowerCase() ?? ''));
}
