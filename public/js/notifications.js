// The bell's unread count, and the navigation's other counts (the chat's unread messages), kept
// live over /ws/notifications/ while a page is open: the page's one socket. Without this script
// the bell and the links are plain, showing the counts of when the page was built.
// Frames from the server: {"type": "unread", "count": N} for the bell, {"type": "counts",
// "counts": {"/chat/": N}} for the links (by href). Nothing is sent to it.
(() => {
  const bell = document.getElementById('notification-bell');
  if (!bell || !('WebSocket' in window)) return;
  const label = bell.querySelector('[data-bell-label]');
  const badge = bell.querySelector('.bell-count');
  // The server counts up to CAP (platform/notifications.ts UNREAD_CAP) and shows "99+" from there.
  const CAP = 100;
  const CLOSE_NO_ACCESS = 4403;
  const MAX_DELAY_MS = 60_000;
  let attempts = 0;
  let socket = null;
  let reconnectTimer = null;

  function show(count) {
    if (!Number.isInteger(count) || count < 0) return;
    bell.dataset.unread = String(count);
    badge.textContent = count >= CAP ? `${CAP - 1}+` : String(count);
    badge.hidden = count === 0;
    label.textContent = labelFor(bell, count) ?? label.textContent;
  }

  // A counted link of the navigation (platform/views/layout.tsx: data-count-href, its words in
  // data-label-*): the badge and its words as the server writes them, none at 0.
  function showCounts(counts) {
    if (!counts || typeof counts !== 'object') return;
    for (const link of document.querySelectorAll('a[data-count-href]')) {
      const count = counts[link.dataset.countHref];
      if (!Number.isInteger(count) || count < 0) continue;
      let badge = link.querySelector('.nav-count');
      let words = link.querySelector('.nav-count ~ .visually-hidden');
      if (count === 0) {
        badge?.remove();
        words?.remove();
        continue;
      }
      if (!badge || !words) {
        badge?.remove();
        words?.remove();
        badge = document.createElement('span');
        badge.className = 'nav-count';
        badge.setAttribute('aria-hidden', 'true');
        words = document.createElement('span');
        words.className = 'visually-hidden';
        link.append(badge, words);
      }
      badge.textContent = count >= CAP ? `${CAP - 1}+` : String(count);
      const said = labelFor(link, count);
      if (said) words.textContent = `, ${said}`;
    }
  }

  // The words are the page's (bell.tsx and the layout render one label per plural form of its
  // language, data-label-one, -few..., with {count} for the number): this script holds none.
  const rules = new Intl.PluralRules(document.body.dataset.locale || undefined);
  function labelFor(element, count) {
    const words = element.dataset;
    if (count === 0) return words.labelNone;
    if (count >= CAP) return words.labelMore;
    const form = rules.select(count);
    const template = words[`label${form[0].toUpperCase()}${form.slice(1)}`] ?? words.labelOther ?? words.labelMany;
    return template ? template.replace('{count}', String(count)) : undefined;
  }

  function scheduleReconnect() {
    // 1 s, 2 s, 4 s... up to a minute, with jitter so that a restarted server is not hit at once.
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** attempts) * (0.5 + Math.random() / 2);
    attempts += 1;
    reconnectTimer = setTimeout(connect, delay);
  }

  function connect() {
    reconnectTimer = null;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${scheme}//${location.host}${bell.dataset.socketPath}`);
    socket.addEventListener('open', () => {
      attempts = 0;
    });
    socket.addEventListener('message', (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && frame.type === 'unread') show(frame.count);
      else if (frame && frame.type === 'counts') showCounts(frame.counts);
    });
    socket.addEventListener('close', (event) => {
      socket = null;
      // Logged out (here or in another tab): the next page load shows the login page anyway.
      if (event.code === CLOSE_NO_ACCESS) return;
      scheduleReconnect();
    });
  }

  // Back on the page after the laptop slept: reconnect now rather than after the back-off.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !socket && reconnectTimer) {
      clearTimeout(reconnectTimer);
      attempts = 0;
      connect();
    }
  });

  connect();
})();
