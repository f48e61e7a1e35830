// Edited and deleted chat messages: the `edited` and `deleted` frames (and the history's
// `edited_at` and `deleted` after a reconnect) change a message in place, and each message the
// reader may change gets small Edit and Delete links, as the server renders them
// (src/features/groups/chat/views.tsx). The links lead to the pages that work without this script
// (Delete opens its confirmation as a dialog: confirm.js); the server judges who may, this only
// decides which links to show. Loaded before chat.js, which calls it.
window.groupnotesChatChanges = ({ root, log, username, fillContent, fullTime }) => {
  const words = root.dataset;
  const isOwner = root.dataset.owner === 'true';
  const editWindowMs = Number(root.dataset.editWindowMs) || 0;
  const SWEEP_MS = 10_000;

  const itemOf = (id) => (typeof id === 'number' ? log.querySelector(`li[data-message-id="${id}"]`) : null);
  const inWindow = (author, timestamp) => author === username && Date.parse(timestamp) + editWindowMs > Date.now();

  function link(id, change, text, label) {
    const anchor = document.createElement('a');
    anchor.className = `chat-${change}`;
    anchor.setAttribute('href', `${root.dataset.messagesUrl}${id}/${change}/`);
    anchor.setAttribute('aria-label', label);
    anchor.textContent = text;
    return anchor;
  }

  /** The Edit and Delete links the reader may use on a message now, or null: the author's within the window, the owner's Delete always. */
  function actionsFor(message) {
    const editable = inWindow(message.author, message.timestamp);
    if (message.deleted || !(editable || isOwner)) return null;
    const actions = document.createElement('span');
    actions.className = 'chat-actions';
    if (editable) actions.append(link(message.message_id, 'edit', words.wordEdit, words.wordEditLabel));
    const remove = link(message.message_id, 'delete', words.wordDelete, words.wordDeleteLabel);
    remove.dataset.confirm = '';
    actions.append(remove);
    return actions;
  }

  /** Marks a message edited, with the edit's date and time as its tooltip. */
  function markEdited(item, editedAt) {
    let marker = item.querySelector('.chat-edited');
    if (!marker) {
      marker = document.createElement('span');
      marker.className = 'chat-edited';
      marker.textContent = words.wordEdited;
      item.querySelector('time')?.after(' ', marker);
    }
    marker.dataset.editedAt = editedAt;
    marker.title = fullTime(editedAt);
  }

  /** The new text, shown as a new message's is (links, cards and mentions made again). A delete is final, whatever order frames came in. */
  function showEdit(item, content, editedAt) {
    const text = item.querySelector('.chat-content');
    if (item.classList.contains('deleted') || !text) return;
    for (const card of item.querySelectorAll('.chat-card, .chat-card-hint')) card.remove();
    delete text.dataset.refs;
    fillContent(text, content);
    markEdited(item, editedAt);
  }

  function showDeleted(item) {
    if (item.classList.contains('deleted')) return;
    item.classList.add('deleted');
    for (const extra of item.querySelectorAll('.chat-card, .chat-card-hint, .chat-edited, .chat-actions')) extra.remove();
    const placeholder = document.createElement('p');
    placeholder.className = 'chat-deleted';
    placeholder.textContent = words.wordDeleted;
    item.querySelector('.chat-content')?.replaceWith(placeholder);
  }

  /** Own messages lose Edit once their window has passed, and Delete too unless the reader owns the group. */
  function sweep() {
    for (const item of log.querySelectorAll('li.own:not(.deleted)')) {
      const actions = item.querySelector('.chat-actions');
      const time = item.querySelector('time');
      if (!actions || !time || inWindow(username, time.dateTime)) continue;
      item.querySelector('.chat-edit')?.remove();
      if (!isOwner) actions.remove();
    }
  }
  window.setInterval(sweep, SWEEP_MS);

  return {
    /** Completes a new message's element: its edited mark, its links, or its placeholder once deleted. */
    decorate(item, message) {
      const actions = actionsFor(message);
      if (actions) item.querySelector('header')?.append(actions);
      if (message.deleted) showDeleted(item);
      else if (message.edited_at) markEdited(item, message.edited_at);
    },
    /** A message already shown, as the history tells it again after a reconnect: what changed while away. */
    refresh(message) {
      const item = itemOf(message.message_id);
      if (!item) return;
      if (message.deleted) showDeleted(item);
      else if (message.edited_at && item.querySelector('.chat-edited')?.dataset.editedAt !== message.edited_at) showEdit(item, String(message.content), message.edited_at);
    },
    edited(frame) {
      const item = itemOf(frame.message_id);
      if (item) showEdit(item, String(frame.content), String(frame.edited_at));
    },
    deleted(frame) {
      const item = itemOf(frame.message_id);
      if (item) showDeleted(item);
    },
  };
};
