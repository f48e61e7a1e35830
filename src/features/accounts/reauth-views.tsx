import { Field } from '../../platform/views/forms.js';
import { type FormErrors } from '../../platform/forms.js';
import type { ViewContext } from '../../platform/views/context.js';

/**
 * The fields of a form guarded by re-authentication (reauthentication.ts): the current password,
 * and with two-factor sign-in on a code from the app or a recovery code.
 */
export function ReauthFields({ ctx, errors, withCode, help, label, required }: { ctx: ViewContext; errors: FormErrors; withCode: boolean; help?: string; label?: string; required?: boolean }) {
  return (
    <>
      <Field name="password" label={label ?? ctx.t('reauth.password')} type="password" errors={errors} required={required} autocomplete="current-password" help={help} />
      {withCode ? <Field name="code" label={ctx.t('two_factor.code_or_recovery')} errors={errors} required={required} autocomplete="one-time-code" maxLength={40} /> : null}
    </>
  );
}
