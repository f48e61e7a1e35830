import { Swatch } from '../../platform/views/color.js';
import type { NoteRow } from './details.js';
import { PRIORITIES } from './forms.js';

/**
 * The badges of a note: pinned, priority, group and owner for everyone who sees it; notebook
 * and tags only for its owner (they are the owner's private filing: SPEC's matrix gives
 * notebooks and tags to their owner alone).
 */
export function NoteBadges({ note, viewerId }: { note: NoteRow; viewerId: number }) {
  const owned = note.owner_id === viewerId;
  return (
    <ul class="note-badges" aria-label="Details">
      {/* Only the owner pins (PRODUCT.md): anyone else is told whose pin it is. */}
      {note.is_pinned ? <li class="badge badge-pinned">{owned ? 'Pinned' : `Pinned by ${note.owner_username}`}</li> : null}
      {note.priority > 0 ? <li class={`badge badge-priority-${note.priority}`}>{PRIORITIES[note.priority]} priority</li> : null}
      {note.is_archived ? <li class="badge">Archived</li> : null}
      {note.group_name !== null ? <li class="badge badge-group">Group: <a href={`/groups/${note.group_id}/`}>{note.group_name}</a></li> : null}
      {owned ? null : <li class="badge badge-owner">By {note.owner_username}</li>}
      {owned && note.notebook_id !== null ? (
        <li>
          <a class="notebook-chip" href={`/notes/?notebook=${note.notebook_id}`}>
            <Swatch color={note.notebook_color ?? '#888888'} /> {note.notebook_title}
          </a>
        </li>
      ) : null}
      {owned
        ? note.tags.map((tag) => (
            <li>
              <a class="tag-chip" href={`/notes/?tag=${tag.id}`}>
                <Swatch color={tag.color} /> {tag.name}
              </a>
            </li>
          ))
        : null}
    </ul>
  );
}
