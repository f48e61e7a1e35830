import type { ActivityEntry } from './activity.js';
import { Time } from '../../platform/views/controls.js';
import type { ViewContext } from '../../platform/views/context.js';

/**
 * One event in words: who did what to which object or member, one sentence from the catalogue
 * (its word order is the language's). Null for an event about an object the reader cannot see.
 */
function eventWords(ctx: ViewContext, event: ActivityEntry): string | null {
  const someone = ctx.t('group_activity.someone');
  const actor = event.actor ?? someone;
  const member = event.member ?? someone;
  const { object } = event;
  switch (event.kind) {
    case 'note.shared':
      return object ? ctx.t('group_activity.note_shared', { actor, title: object.title }) : null;
    case 'list.added':
      return object ? ctx.t('group_activity.list_added', { actor, kind: object.kind, title: object.title }) : null;
    case 'list.changed':
      return object ? ctx.t('group_activity.list_changed', { actor, kind: object.kind, title: object.title, count: event.count }) : null;
    case 'member.added':
      return event.actor ? ctx.t('group_activity.member_added_by', { actor, member }) : ctx.t('group_activity.member_added', { member });
    case 'member.left':
      return ctx.t('group_activity.member_left', { member });
    case 'member.removed':
      return ctx.t('group_activity.member_removed', { actor, member });
    case 'member.unshared':
      return event.unsharedKind ? ctx.t('group_activity.member_unshared', { member, kind: event.unsharedKind, count: event.count }) : null;
    case 'group.renamed':
      return ctx.t('group_activity.renamed', { actor });
  }
  return null;
}

/**
 * The group page's recent events, newest first: only those about objects the reader may see now.
 * An event about a note or list links the whole sentence to it.
 */
export function GroupActivity({ ctx, events }: { ctx: ViewContext; events: ActivityEntry[] }) {
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">{ctx.t('group_activity.heading')}</h2>
      {events.length === 0 ? (
        <p class="empty">{ctx.t('group_activity.empty')}</p>
      ) : (
        <ul class="activity-list">
          {events.map((event) => {
            const words = eventWords(ctx, event);
            return (
              <li>
                <span>{event.object && words ? <a href={event.object.path}>{words}</a> : words}</span>{' '}
                <small><Time ms={event.updated_at} timeZone={ctx.user?.timezone ?? 'UTC'} /></small>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
