import { ConfirmPage } from '../../platform/views/confirm.js';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';

// The group's owner renames it and removes members; a member leaves: each change asks first.

export function GroupEditPage({ ctx, group, values = {}, errors = {} }: {
  ctx: ViewContext;
  group: { id: number; name: string };
  values?: FormValues;
  errors?: FormErrors;
}) {
  return (
    <Layout ctx={ctx} title={`Rename ${group.name}`}>
      <article class="narrow">
        <h1>Rename “{group.name}”</h1>
        <form method="post" action={`/groups/${group.id}/edit/`} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label="Name" value={values.name ?? group.name} errors={errors} required maxLength={150} autofocus
            help="Members see the new name at once, on notes and lists shared with the group too." />
          <div class="actions">
            <button type="submit">Save name</button>
            <a href={`/groups/${group.id}/`} role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

export function LeaveConfirmPage({ ctx, group }: { ctx: ViewContext; group: { id: number; name: string } }) {
  return (
    <ConfirmPage ctx={ctx} title={`Leave ${group.name}`} heading={`Leave “${group.name}”?`} action={`/groups/${group.id}/leave/`}
      button="Leave group" cancel={`/groups/${group.id}/`}>
      <p>You will no longer see its chat, nor the notes and lists shared with it. Only its owner can add you again.</p>
    </ConfirmPage>
  );
}

export function RemoveMemberConfirmPage({ ctx, group, member }: { ctx: ViewContext; group: { id: number; name: string }; member: { id: number; username: string } }) {
  return (
    <ConfirmPage ctx={ctx} title={`Remove ${member.username}`} heading={`Remove ${member.username} from “${group.name}”?`}
      action={`/groups/${group.id}/members/`} button="Remove member" cancel={`/groups/${group.id}/`}
      fields={{ action: 'remove', user_pk: String(member.id) }}>
      <p>{member.username} will no longer see the group’s chat, nor the notes and lists shared with it. You can add them again later.</p>
    </ConfirmPage>
  );
}
