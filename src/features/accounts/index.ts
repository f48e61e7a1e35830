import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { passwordResetPages } from './reset-routes.js';
import { accountPages } from './routes.js';

// Accounts: signing in and out, registering, the account page and its settings, sessions,
// two-factor sign-in, access tokens and password reset. The front door: what the feature
// registers, and what other features and the command line may use of it.

export const accountsFeature: FastifyPluginAsync<Services> = async (app, services) => {
  await accountPages(app, services);
  await passwordResetPages(app, services);
};

export { CURRENCIES, currencyChoices, isCurrency } from './currencies.js';
export { username } from './forms.js';
export { usernameSkeleton } from './lookalikes.js';
export { UsersRepository } from './repository.js';
export { AccountsService } from './service.js';
export { PasswordResetService } from './reset-service.js';
export { TokensRepository } from './tokens-repository.js';
export { adminResetLimits, AttemptThrottle, MAX_ADMIN_RESETS_PER_USER, passwordChangeLimits } from './throttle.js';
export { AccountNotices } from './notices.js';
export { type Refusal, Reauthentication, reauthenticationFor, reauthFields } from './reauthentication.js';
export { ReauthFields } from './reauth-views.js';
export { TwoFactorService } from './two-factor-service.js';
