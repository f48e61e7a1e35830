// Live to-do and shopping lists: an enhancement of the server-rendered page, which works as plain
// forms without this script. Frames from /ws/todo/<pk>/ or /ws/shopping/<pk>/ (the server only
// speaks): {"type":"item","id":1,"html":"<li…>","summary":{…}}, {"type":"removed","id":1,
// "summary":{…}}, {"type":"reload"}, {"type":"deleted"} (then a 4403 close). While connected, ticks
// are sent with fetch and the page is updated by the socket's echo, so the page keeps its scroll
// position and focus. When the list is deleted, or no longer the viewer's to see (a 4403 close
// without `deleted`), its items give way to a notice and its forms are disabled.
(() => {
  const root = document.getElementById('live-list');
  if (!root || !('WebSocket' in window)) return;
  const CLOSE_NO_ACCESS = 4403;
  const MAX_DELAY_MS = 60_000;
  const csrfToken = document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '';
  let socket = null;
  let attempts = 0;
  let connectedBefore = false;
  let ended = false;
  let deleted = false;

  const rowOf = (id) => root.querySelector(`[data-item-id="${CSS.escape(String(id))}"]`);
  const container = () => root.querySelector('ul.todo-items, table.shopping-items tbody');

  function fromHtml(html) {
    const template = document.createElement('template');
    // A <tr> parses only inside a table.
    const isRow = html.trimStart().startsWith('<tr');
    template.innerHTML = isRow ? `<table><tbody>${html}</tbody></table>` : html;
    const element = isRow ? template.content.querySelector('tr') : template.content.firstElementChild;
    // One rendering serves every viewer: the forms get this page's own CSRF token.
    for (const input of element.querySelectorAll('input[name=csrfmiddlewaretoken]')) input.value = csrfToken;
    return element;
  }

  /** Which control of a row had focus, to give it back to the same control of its replacement. */
  function focusedControl(row) {
    const active = document.activeElement;
    if (!row || !active || !row.contains(active)) return null;
    return active.closest('form')?.getAttribute('action') ?? null;
  }

  function restoreFocus(row, action) {
    if (action === null) return;
    row.querySelector(`form[action="${CSS.escape(action)}"] button`)?.focus();
  }

  /** Puts a row where the page puts it (its data-order among the others'), as a reload would show it. */
  function place(list, element) {
    const order = element.dataset.order ?? '';
    const after = [...list.children].find((row) => row !== element && (row.dataset.order ?? '') > order);
    if (after) {
      if (element.nextElementSibling !== after) list.insertBefore(element, after);
    } else if (list.lastElementChild !== element) {
      list.append(element);
    }
  }

  function showItem(id, html) {
    const element = fromHtml(html);
    const old = rowOf(id);
    const list = container();
    if (old) {
      const action = focusedControl(old);
      old.replaceWith(element);
      if (list) place(list, element);
      restoreFocus(element, action);
      return;
    }
    // The first item of an empty list: the page's structure changes, so it is read again.
    if (!list) return resync();
    place(list, element);
  }

  /** "Remove bought" is there while something is bought. */
  function showClearBought() {
    const clear = root.querySelector('[data-clear-bought]');
    if (clear) clear.hidden = !root.querySelector('tr.bought');
  }

  function removeItem(id) {
    const old = rowOf(id);
    if (!old) return;
    if (old.contains(document.activeElement)) {
      (old.nextElementSibling ?? old.previousElementSibling)?.querySelector('button')?.focus();
    }
    old.remove();
  }

  /** The summary comes worded by the server for this viewer (language, currency): counts as text, the total as HTML. */
  function showSummary(summary) {
    if (!summary) return;
    const counts = root.querySelector('[data-live-counts]');
    if (counts && typeof summary.counts === 'string') counts.textContent = summary.counts;
    const total = root.querySelector('.shopping-total');
    if (total && summary.html) total.replaceWith(fromHtml(summary.html));
  }

  /**
   * The list is gone for this viewer: its items give way to a notice (the server's words, on
   * #live-list) with a link to the lists, and nothing on the page can be sent about it any more.
   */
  function showEnded(text) {
    const hadFocus = root.contains(document.activeElement);
    const notice = document.createElement('p');
    notice.setAttribute('role', 'alert');
    notice.textContent = text;
    const back = document.createElement('a');
    back.href = root.dataset.backPath;
    back.textContent = root.dataset.wordBack;
    const link = document.createElement('p');
    link.append(back);
    root.replaceChildren(notice, link);
    // Its heading went with the items.
    root.removeAttribute('aria-labelledby');
    root.dataset.ended = deleted ? 'deleted' : 'no-access';
    for (const form of document.querySelectorAll('main form')) {
      for (const control of form.elements) control.disabled = true;
    }
    if (hadFocus) root.focus();
  }

  /** After a reconnect: what changed meanwhile is read as the page, and its list shown. */
  async function resync() {
    const response = await fetch(location.href, { credentials: 'same-origin' });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const fresh = page.getElementById('live-list');
    if (fresh) root.innerHTML = fresh.innerHTML;
  }

  function onFrame(event) {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame.type === 'item') showItem(frame.id, frame.html);
    else if (frame.type === 'removed') removeItem(frame.id);
    else if (frame.type === 'reload') return location.reload();
    else if (frame.type === 'deleted') {
      deleted = true;
      return showEnded(root.dataset.wordDeleted);
    }
    showSummary(frame.summary);
    showClearBought();
  }

  function scheduleReconnect() {
    // 1 s, 2 s, 4 s... up to a minute, with jitter so that a restarted server is not hit at once.
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** attempts) * (0.5 + Math.random() / 2);
    attempts += 1;
    setTimeout(connect, delay);
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${scheme}//${location.host}${root.dataset.socketPath}`);
    socket.addEventListener('open', () => {
      attempts = 0;
      root.dataset.live = 'on';
      if (connectedBefore) void resync();
      connectedBefore = true;
    });
    socket.addEventListener('message', onFrame);
    socket.addEventListener('close', (event) => {
      socket = null;
      root.dataset.live = 'off';
      // No access any more (share removed, list deleted, logged out): said at once, no reconnect.
      if (event.code === CLOSE_NO_ACCESS && !ended) {
        ended = true;
        if (!deleted) showEnded(root.dataset.wordNoAccess);
      }
      if (!ended) scheduleReconnect();
    });
  }

  // A tick while live: sent with fetch, shown when the socket echoes it. Anything but the usual
  // redirect (a 404 because access ended, say) is submitted again as a plain form, to show the answer.
  root.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.action.endsWith('/toggle/') || socket?.readyState !== WebSocket.OPEN) return;
    event.preventDefault();
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new URLSearchParams(new FormData(form)),
        headers: { 'X-CSRFToken': csrfToken },
        credentials: 'same-origin',
        redirect: 'manual',
      });
      if (response.type === 'opaqueredirect') return;
    } catch {
      // Offline: the plain form says so.
    }
    form.submit();
  });

  connect();
})();
