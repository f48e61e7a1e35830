import { isCurrency } from '../../platform/currencies.js';
import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { isTimeZone } from '../../platform/time-zones.js';
import { passwordProblems } from '../../platform/passwords/password-rules.js';

const USERNAME = /^[\p{L}\p{N}_.@+-]+$/u;

const identityName = checkIdentityName({ empty: 'Enter a valid username: it must show a letter or digit.', tooLong: 'That username is too long.' });

/** One message at a time, the first problem found: an empty name is not also told it has no letter. */
export const username = z.string({ error: 'Enter a username.' }).trim().superRefine((name, ctx) => {
  const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (name.length === 0) problem('Enter a username.');
  else if (name.length > 150) problem('Usernames have at most 150 characters.');
  else if (!USERNAME.test(name)) problem('Enter a valid username: letters, digits and @ . + - _ only.');
  else identityName(name, ctx);
});

const password = (message: string) => z.string({ error: message }).min(1, message).max(4096, 'That password is too long.');

export const loginForm = z.object({
  username: z.string({ error: 'Enter your username.' }).trim().min(1, 'Enter your username.').max(150, 'Usernames have at most 150 characters.'),
  password: password('Enter your password.'),
  next: z.string().optional(),
});

const email = z.union([z.literal(''), z.email('Enter a valid email address.').max(254)]).optional().default('');

/** The account page: the address for password-reset mail, the user's time zone and currency. */
export const accountForm = z.object({
  email,
  timezone: z.string({ error: 'Select your time zone.' }).refine(isTimeZone, 'Select a valid time zone.'),
  /** For shopping prices and totals; absent is none. */
  currency: z.string().trim().optional().default('').refine(isCurrency, 'Choose one of the listed currencies, or none.'),
});

/**
 * A new password and its confirmation: a mismatch is said on the confirmation, and the password
 * rules are applied at once too (the rules that need the account are applied again by the
 * service), so that every problem is told in one answer and a new password shown again (kept when
 * only its confirmation was wrong) is one the rules accept.
 */
function checkNewPassword<K extends string>(ctx: z.RefinementCtx, form: Record<K, string> & { username?: string; email?: string }, first: K, second: K): void {
  if (form[first] !== form[second]) ctx.addIssue({ code: 'custom', path: [second], message: 'The two password fields didn’t match.' });
  for (const message of passwordProblems(form[first], { username: form.username ?? '', email: form.email })) {
    ctx.addIssue({ code: 'custom', path: [first], message });
  }
}

export const registerForm = z
  .object({
    username,
    email,
    password1: password('Enter a password.'),
    password2: password('Enter the same password again.'),
    /** The browser's guess (public/js/app.js fills it); anything this server does not know becomes UTC. */
    timezone: z.string().max(100).optional(),
  })
  .superRefine((form, ctx) => checkNewPassword(ctx, form, 'password1', 'password2'));

const newPassword = {
  new_password1: password('Enter a new password.'),
  new_password2: password('Enter the new password again.'),
};
const newPasswordChecked = (form: { new_password1: string; new_password2: string }, ctx: z.RefinementCtx) =>
  checkNewPassword(ctx, form, 'new_password1', 'new_password2');

export const passwordChangeForm = z.object({ old_password: password('Enter your old password.'), ...newPassword }).superRefine(newPasswordChecked);

/** The new password from a reset link: checked like a password change, without the old one. */
export const setPasswordForm = z.object(newPassword).superRefine(newPasswordChecked);

export const passwordResetForm = z.object({
  email: z.email({ error: 'Enter a valid email address.' }).max(254, 'Enter a valid email address.'),
});
