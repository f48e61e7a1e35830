import { Swatch } from '../../platform/views/color.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { NoteRow } from './details.js';
import { PRIORITIES } from './forms.js';

/**
 * The badges of a note: pinned, priority, group and owner for everyone who sees it; notebook
 * and tags only for its owner (they are the owner's private filing: SPEC's matrix gives
 * notebooks and tags to their owner alone).
 */
export function NoteBadges({ ctx, note, viewerId, ownerShown = false }: { ctx: ViewContext; note: NoteRow; viewerId: number; ownerShown?: boolean }) {
  const owned = note.owner_id === viewerId;
  return (
    <ul class="note-badges" aria-label={ctx.t('note.badges')}>
      {/* Only the owner pins: anyone else is told whose pin it is. */}
      {note.is_pinned ? <li class="badge badge-pinned">{owned ? ctx.t('note.pinned') : ctx.t('note.pinned_by', { username: note.owner_username })}</li> : null}
      {note.priority > 0 ? <li class={`badge badge-priority-${note.priority}`}>{ctx.t('note.priority_badge', { priority: ctx.t(PRIORITIES[note.priority] ?? 'note.priority_low') })}</li> : null}
      {note.is_archived ? <li class="badge">{ctx.t('note.archived')}</li> : null}
      {note.group_name !== null ? <li class="badge badge-group">{ctx.t('note.group')} <a href={`/groups/${note.group_id}/`}>{note.group_name}</a></li> : null}
      {/* `ownerShown`: the page names the author already (a note's own page: "Written by …"). */}
      {owned || ownerShown ? null : <li class="badge badge-owner">{ctx.t('note.by', { username: note.owner_username })}</li>}
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
