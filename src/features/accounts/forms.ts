import { isCurrency } from './currencies.js';
import { z } from 'zod';
import { LANGUAGES, msg } from '../../platform/i18n/index.js';
import { checkIdentityName, identityKeyProblem } from '../../platform/identity-key.js';
import { lookalikeProblem } from './lookalikes.js';
import { isTimeZone } from '../../platform/time-zones.js';
import { type PasswordProblem, passwordProblems } from '../../platform/passwords/password-rules.js';
import { checkboxField } from '../../platform/forms.js';
import { reauthFields } from './reauthentication.js';

// Every message is a catalogue key (locales/<language>/accounts.json): the page says it in its language.

const USERNAME = /^[\p{L}\p{N}_.@+-]+$/u;

const identityName = checkIdentityName({ empty: msg('form.username_no_letter'), tooLong: msg('form.username_folds_too_long') });

/** One message at a time, the first problem found: an empty name is not also told it has no letter. */
export const username = z.string({ error: msg('form.username_required') }).trim().superRefine((name, ctx) => {
  const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (name.length === 0) problem(msg('form.username_required'));
  else if (name.length > 150) problem(msg('form.username_too_long'));
  else if (!USERNAME.test(name)) problem(msg('form.username_invalid'));
  else if (identityKeyProblem(name)) identityName(name, ctx);
  else {
    const lookalike = lookalikeProblem(name);
    if (lookalike) problem(lookalike);
  }
});

const password = (message: string) => z.string({ error: message }).min(1, message).max(4096, msg('form.password_too_long'));

export const loginForm = z.object({
  username: z.string({ error: msg('form.your_username') }).trim().min(1, msg('form.your_username')).max(150, msg('form.username_too_long')),
  password: password(msg('form.your_password')),
  next: z.string().optional(),
});

const email = z.union([z.literal(''), z.email(msg('form.email_invalid')).max(254, msg('form.email_invalid'))]).optional().default('');

/** '' (the browser's languages) or a language there is a catalogue for. */
export function isLanguageSetting(value: string): boolean {
  return value === '' || LANGUAGES.includes(value);
}

/** The account page: the address for password-reset mail, the user's time zone, currency and language. */
export const accountForm = z.object({
  email,
  timezone: z.string({ error: msg('form.timezone_required') }).refine(isTimeZone, msg('form.timezone_invalid')),
  /** For shopping prices and totals; absent is none. */
  currency: z.string().trim().optional().default('').refine(isCurrency, msg('form.currency_invalid')),
  /** The pages' and mails' language; absent is the browser's. */
  language: z.string().trim().optional().default('').refine(isLanguageSetting, msg('form.language_invalid')),
  /** Asked for only when the email address changes (reauthentication.ts). */
  ...reauthFields,
});

/** A password rule broken, as an issue of `path`: with the length the rule asks for, when it does. */
function passwordIssue(ctx: z.RefinementCtx, path: string, problem: PasswordProblem): void {
  if (problem.values) ctx.addIssue({ code: 'too_small', origin: 'string', minimum: problem.values.min, inclusive: true, input: '', path: [path], message: problem.key });
  else ctx.addIssue({ code: 'custom', path: [path], message: problem.key });
}

/**
 * A new password and its confirmation: a mismatch is said on the confirmation, and the password
 * rules are applied at once too (the rules that need the account are applied again by the
 * service), so that every problem is told in one answer and a new password shown again (kept when
 * only its confirmation was wrong) is one the rules accept.
 */
function checkNewPassword<K extends string>(ctx: z.RefinementCtx, form: Record<K, string> & { username?: string; email?: string }, first: K, second: K): void {
  // An empty field has its own message ("Enter a password."): it is not also too short, nor different.
  if (!form[first]) return;
  if (form[second] && form[first] !== form[second]) ctx.addIssue({ code: 'custom', path: [second], message: msg('form.passwords_differ') });
  for (const problem of passwordProblems(form[first], { username: form.username ?? '', email: form.email })) passwordIssue(ctx, first, problem);
}

export const registerForm = z
  .object({
    username,
    email,
    password1: password(msg('form.password_required')),
    password2: password(msg('form.password_again')),
    /** The browser's guess (public/js/app.js fills it); anything this server does not know becomes UTC. */
    timezone: z.string().max(100).optional(),
  })
  .superRefine((form, ctx) => checkNewPassword(ctx, form, 'password1', 'password2'));

const newPassword = {
  new_password1: password(msg('form.new_password_required')),
  new_password2: password(msg('form.new_password_again')),
};
const newPasswordChecked = (form: { new_password1: string; new_password2: string }, ctx: z.RefinementCtx) =>
  checkNewPassword(ctx, form, 'new_password1', 'new_password2');

/** `revoke_tokens`: "also revoke my API tokens", shown ticked; absent (unticked, or an older form) keeps them. */
export const passwordChangeForm = z
  .object({ old_password: password(msg('form.old_password_required')), ...newPassword, revoke_tokens: checkboxField() })
  .superRefine(newPasswordChecked);

/** The new password from a reset link: checked like a password change, without the old one. */
export const setPasswordForm = z.object(newPassword).superRefine(newPasswordChecked);

export const passwordResetForm = z.object({
  email: z.email({ error: msg('form.email_invalid') }).max(254, msg('form.email_invalid')),
});
