import { ConfirmPage } from '../../platform/views/confirm.js';
import { CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';

// The group's owner renames it and removes members; a member leaves: each change asks first.

export function GroupEditPage({ ctx, group, values = {}, errors = {} }: {
  ctx: ViewContext;
  group: { id: number; name: string };
  values?: FormValues;
  errors?: FormErrors;
}) {
  return (
    <Layout ctx={ctx} title={ctx.t('group_edit.title', { name: group.name })}>
      <article class="narrow">
        <h1>{ctx.t('group_edit.heading', { name: group.name })}</h1>
        <form method="post" action={`/groups/${group.id}/edit/`} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label={ctx.t('group_form.name')} value={values.name ?? group.name} errors={errors} required maxLength={150} autofocus
            help={ctx.t('group_edit.name_help')} />
          <div class="actions">
            <button type="submit">{ctx.t('group_edit.save')}</button>
            <a href={`/groups/${group.id}/`} role="button" class="secondary outline">{ctx.t('group_delete.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

export function LeaveConfirmPage({ ctx, group }: { ctx: ViewContext; group: { id: number; name: string } }) {
  return (
    <ConfirmPage ctx={ctx} title={ctx.t('group_leave.title', { name: group.name })} heading={ctx.t('group_leave.heading', { name: group.name })}
      action={`/groups/${group.id}/leave/`} button={ctx.t('group_leave.button')} cancel={`/groups/${group.id}/`}>
      <p>{ctx.t('group_leave.body')}</p>
    </ConfirmPage>
  );
}

export function RemoveMemberConfirmPage({ ctx, group, member }: { ctx: ViewContext; group: { id: number; name: string }; member: { id: number; username: string } }) {
  return (
    <ConfirmPage ctx={ctx} title={ctx.t('group_remove.title', { username: member.username })}
      heading={ctx.t('group_remove.heading', { username: member.username, group: group.name })}
      action={`/groups/${group.id}/members/`} button={ctx.t('group_remove.button')} cancel={`/groups/${group.id}/`}
      fields={{ action: 'remove', user_pk: String(member.id) }}>
      <p>{ctx.t('group_remove.body', { username: member.username })}</p>
    </ConfirmPage>
  );
}
