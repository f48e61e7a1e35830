import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { isTimeZone } from '../../platform/time-zones.js';

const USERNAME = /^[\p{L}\p{N}_.@+-]+$/u;

export const username = z
  .string({ error: 'Enter a username.' })
  .trim()
  .min(1, 'Enter a username.')
  .max(150, 'Usernames have at most 150 characters.')
  .regex(USERNAME, 'Enter a valid username: letters, digits and @ . + - _ only.')
  .superRefine(checkIdentityName({ empty: 'Enter a valid username: it must show a letter or digit.', tooLong: 'That username is too long.' }));

const password = (message: string) => z.string({ error: message }).min(1, message).max(4096, 'That password is too long.');

export const loginForm = z.object({
  username: z.string({ error: 'Enter your username.' }).trim().min(1, 'Enter your username.').max(150, 'Usernames have at most 150 characters.'),
  password: password('Enter your password.'),
  next: z.string().optional(),
});

const email = z.union([z.literal(''), z.email('Enter a valid email address.').max(254)]).optional().default('');

/** The account page: the address for password-reset mail, and the user's time zone. */
export const accountForm = z.object({
  email,
  timezone: z.string({ error: 'Select your time zone.' }).refine(isTimeZone, 'Select a valid time zone.'),
});

export const registerForm = z
  .object({
    username,
    email,
    password1: password('Enter a password.'),
    password2: password('Enter the same password again.'),
    /** The browser's guess (public/js/app.js fills it); anything this server does not know becomes UTC. */
    timezone: z.string().max(100).optional(),
  })
  .refine((form) => form.password1 === form.password2, { path: ['password2'], message: 'The two password fields didn’t match.' });

const newPassword = {
  new_password1: password('Enter a new password.'),
  new_password2: password('Enter the new password again.'),
};
const newPasswordsMatch = (form: { new_password1: string; new_password2: string }) => form.new_password1 === form.new_password2;
const mismatch = { path: ['new_password2'], message: 'The two password fields didn’t match.' };

export const passwordChangeForm = z.object({ old_password: password('Enter your old password.'), ...newPassword }).refine(newPasswordsMatch, mismatch);

/** The new password from a reset link: checked like a password change, without the old one. */
export const setPasswordForm = z.object(newPassword).refine(newPasswordsMatch, mismatch);

export const passwordResetForm = z.object({
  email: z.email({ error: 'Enter a valid email address.' }).max(254, 'Enter a valid email address.'),
});
