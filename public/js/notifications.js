// The bell's unread count, kept live over /ws/notifications/ while a page is open. Without this
// script the bell is a plain link showing the count of when the page was built.
// Frames from the server: {"type": "unread", "count": N}. Nothing is sent to it.
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
    label.textContent = labelFor(count);
  }

  // The words are the page's (platform/views/bell.tsx renders one label per plural form of its
  // language, data-label-one, -few..., with {count} for the number): this script holds none.
  const rules = new Intl.PluralRules(document.body.dataset.locale || undefined);
  function labelFor(count) {
    if (count === 0) return bell.dataset.labelNone;
    if (count >= CAP) return bell.dataset.labelMore;
    const form = rules.select(count);
    const template = bell.dataset[`label${form[0].toUpperCase()}${form.slice(1)}`] ?? bell.dataset.labelOther ?? bell.dataset.labelMany;
    return template ? template.replace('{count}', String(count)) : label.textContent;
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
