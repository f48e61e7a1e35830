import type { ActivityEntry } from '../../platform/activity.js';
import { Time } from '../../platform/views/controls.js';

const someone = (name: string | null) => name ?? 'Someone';

function ObjectLink({ object }: { object: NonNullable<ActivityEntry['object']> }) {
  return <>the {object.noun} <a href={object.path}>{object.title}</a></>;
}

/** One event in words: who did what to which object or member. */
function EventWords({ event }: { event: ActivityEntry }) {
  const actor = <strong>{someone(event.actor)}</strong>;
  const member = <strong>{someone(event.member)}</strong>;
  const { object } = event;
  switch (event.kind) {
    case 'note.shared':
      return object ? <>{actor} shared <ObjectLink object={object} /> with the group</> : null;
    case 'list.added':
      return object ? <>{actor} added <ObjectLink object={object} /> to the group</> : null;
    case 'list.changed':
      return object ? <>{actor} changed <ObjectLink object={object} />{event.count > 1 ? ` (${event.count} changes)` : ''}</> : null;
    case 'member.added':
      return event.actor ? <>{actor} added {member}</> : <>{member} was added</>;
    case 'member.left':
      return <>{member} left the group</>;
    case 'member.removed':
      return <>{actor} removed {member}</>;
    case 'group.renamed':
      return <>{actor} renamed the group</>;
  }
}

/** The group page's recent events, newest first: only those about objects the reader may see now. */
export function GroupActivity({ events }: { events: ActivityEntry[] }) {
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Recent activity</h2>
      {events.length === 0 ? (
        <p class="empty">Nothing yet. Share a note or a shopping list with the group and it shows up here.</p>
      ) : (
        <ul class="activity-list">
          {events.map((event) => (
            <li>
              <span><EventWords event={event} /></span> <small><Time ms={event.updated_at} /></small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
