// Live group chat: an enhancement of the server-rendered page, which shows recent history
// without this script. Protocol: PRODUCT.md section 4.
(() => {
  const root = document.getElementById('chat');
  if (!root || !('WebSocket' in window)) return;

  const username = root.dataset.username;
  const scroller = document.getElementById('chat-scroll');
  const log = document.getElementById('chat-log');
  const status = document.getElementById('chat-status');
  const form = document.getElementById('chat-form');
  const input = document.getElementById('chat-input');
  const errorBox = document.getElementById('chat-error');
  const olderNote = document.getElementById('chat-older');
  const PAGE = 50;
  // The words shown to people, in the page's language: the server writes them on #chat (chat-views.tsx).
  const words = root.dataset;
  const fill = (text, name, value) => (text ?? '').split(`{${name}}`).join(value);
  const CLOSE_NO_ACCESS = 4403;
  // The account's zone (data-time-zone on <body>), which the server writes the page's times in;
  // one this browser does not know leaves the browser's own.
  const timeZone = (() => {
    try {
      return new Intl.DateTimeFormat(undefined, { timeZone: document.body.dataset.timeZone || undefined }).resolvedOptions().timeZone;
    } catch {
      return undefined;
    }
  })();
  /** The day of `date` in that zone, as YYYY-MM-DD (en-CA writes dates so), like the server's todayIn. */
  const dayOf = (date) => date.toLocaleDateString('en-CA', { timeZone });

  const known = new Set();
  for (const item of log.querySelectorAll('li[data-message-id]')) known.add(Number(item.dataset.messageId));
  const serverRendered = log.querySelectorAll('.chat-content');
  // Links and cards (chat-links.js); without it, messages stay text.
  const links = window.groupnotesChatLinks?.({ root, nearBottom: () => nearBottom(), scrollToBottom: () => scrollToBottom() });
  // Mentions of members marked, and suggested in the box (chat-mentions.js); without it, plain text.
  const mentions = window.groupnotesChatMentions?.({ root, input, username });
  const fillContent = (element, text) => {
    if (links) links.fill(element, text);
    else element.textContent = text;
    mentions?.highlight(element);
  };
  // Edits and deletes shown in place, and the links to make them (chat-changes.js).
  const changes = window.groupnotesChatChanges?.({ root, log, username, fillContent, fullTime });
  // A touch-first device (a phone, a tablet) has no Shift+Enter: there Enter is a new line and the
  // Send button sends. app.css shows the hint that says which, from the same media query.
  const touchFirst = window.matchMedia('(pointer: coarse)');
  let hasOlder = known.size >= PAGE;
  /** The text of the last message sent and not yet echoed back by the server. */
  let unconfirmed = null;
  let loadingOlder = false;
  let socket = null;
  let attempts = 0;
  let reconnectTimer = null;
  let ended = false;

  form.hidden = false;

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  function showError(text) {
    errorBox.textContent = text;
  }

  /**
   * One format for every message, history and live alike, in the account's zone and the page's
   * language: "22:10" today, "24 Nov, 22:10" before, with the year when not this year's (the
   * server writes the same: chat-views.tsx chatTime).
   */
  function formatTime(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    const day = dayOf(date);
    const today = dayOf(new Date());
    const options = { timeZone, hour: '2-digit', minute: '2-digit' };
    if (day !== today) {
      Object.assign(options, { month: 'short', day: 'numeric' }, day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' });
    }
    return date.toLocaleString(root.dataset.locale || undefined, options);
  }

  /** The time's tooltip: the whole date and time, in the account's zone and the page's language. */
  function fullTime(iso) {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(root.dataset.locale || undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  }

  function messageElement(message) {
    const own = message.author === username;
    const item = document.createElement('li');
    item.className = own ? 'chat-message own' : 'chat-message';
    item.dataset.messageId = String(message.message_id);
    const header = document.createElement('header');
    const author = document.createElement('strong');
    author.className = 'chat-author';
    author.textContent = own ? words.wordYou : message.author;
    const time = document.createElement('time');
    time.dateTime = message.timestamp;
    time.title = fullTime(message.timestamp);
    time.textContent = formatTime(message.timestamp);
    header.append(author, ' ', time);
    const content = document.createElement('p');
    content.className = 'chat-content';
    fillContent(content, message.content);
    item.append(header, content);
    changes?.decorate(item, message);
    return item;
  }



  /** Inserts in message-id order, once: history after a reconnect repeats what is shown. */
  function insert(message) {
    const id = message.message_id;
    if (typeof id !== 'number' || known.has(id)) return false;
    known.add(id);
    document.getElementById('chat-empty')?.remove();
    const element = messageElement(message);
    const after = [...log.children].find((item) => Number(item.dataset.messageId) > id);
    log.insertBefore(element, after ?? null);
    return true;
  }

  const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  const scrollToBottom = () => {
    scroller.scrollTop = scroller.scrollHeight;
  };

  function receive(message) {
    // Shown already (history again after a reconnect): only what changed meanwhile.
    if (known.has(message.message_id)) {
      changes?.refresh(message);
      return;
    }
    const stick = nearBottom() || message.author === username;
    if (insert(message) && stick) scrollToBottom();
  }

  function scheduleReconnect() {
    const delay = Math.min(30_000, 1000 * 2 ** attempts) * (0.5 + Math.random() / 2);
    attempts += 1;
    setStatus('offline', fill(words.wordReconnecting, 'seconds', String(Math.ceil(delay / 1000))));
    reconnectTimer = setTimeout(connect, delay);
  }

  function connect() {
    reconnectTimer = null;
    if (ended) return;
    setStatus('connecting', words.wordConnecting);
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // Messages are read only while the page is in sight: the server is told whether it is (a tab
    // opened in the background), then each time that changes.
    const inSight = document.visibilityState === 'visible';
    socket = new WebSocket(`${scheme}//${location.host}${root.dataset.socketPath}${inSight ? '' : '?visible=0'}`);
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      attempts = 0;
      // Gone out of sight or back while the socket was connecting.
      const visible = document.visibilityState === 'visible';
      if (visible !== inSight) socket.send(JSON.stringify({ type: 'visibility', visible }));
      setStatus('online', words.wordConnected);
      showError('');
    });
    socket.addEventListener('message', (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === 'history' || frame.type === 'message') {
        if (frame.type === 'message' && frame.author === username && frame.content === unconfirmed) unconfirmed = null;
        receive(frame);
      } else if (frame.type === 'edited') {
        changes?.edited(frame);
      } else if (frame.type === 'deleted') {
        changes?.deleted(frame);
      } else if (frame.type === 'error') {
        // Frames are answered in order, so the error is about the last message sent: give its
        // text back rather than lose it (unless something new has been typed meanwhile).
        const restored = unconfirmed !== null && input.value === '';
        if (restored) input.value = unconfirmed;
        unconfirmed = null;
        showError(`${fill(words.wordNotSent, 'reason', String(frame.error))}${restored ? ` ${words.wordRestored}` : ''}`);
      }
    });
    socket.addEventListener('close', async (event) => {
      socket = null;
      // A refused handshake looks like any dropped connection: ask over HTTP whether access is gone.
      if (event.code === CLOSE_NO_ACCESS || (!opened && !(await stillAllowed()))) {
        end();
        return;
      }
      scheduleReconnect();
    });
  }

  async function stillAllowed() {
    try {
      const response = await fetch(root.dataset.messagesUrl, { headers: { Accept: 'application/json' }, credentials: 'same-origin', redirect: 'manual' });
      // Sent to the login page (logged out) or 404 (not a member): access is gone. Anything
      // else, a proxy's 502 while the server restarts included, is worth another try.
      return !(response.type === 'opaqueredirect' || response.status === 404 || response.status === 403);
    } catch {
      return true; // The server is unreachable: keep trying.
    }
  }

  function end() {
    ended = true;
    setStatus('ended', words.wordEnded);
    input.disabled = true;
    form.querySelector('button').disabled = true;
  }

  async function loadOlder() {
    if (!hasOlder || loadingOlder || known.size === 0) return;
    loadingOlder = true;
    olderNote.hidden = false;
    olderNote.textContent = words.wordOlderLoading;
    try {
      const before = Math.min(...known);
      const response = await fetch(`${root.dataset.messagesUrl}?before=${before}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) throw new Error(String(response.status));
      const { messages } = await response.json();
      const previousHeight = scroller.scrollHeight;
      for (const message of messages) insert(message);
      // Keep the message the reader was looking at in place.
      scroller.scrollTop += scroller.scrollHeight - previousHeight;
      hasOlder = messages.length >= PAGE;
      olderNote.textContent = words.wordOlderStart;
      olderNote.hidden = hasOlder;
    } catch {
      olderNote.textContent = words.wordOlderFailed;
    } finally {
      loadingOlder = false;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const content = input.value.trim();
    if (!content) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(words.wordNotConnected);
      return;
    }
    socket.send(JSON.stringify({ content }));
    unconfirmed = content;
    input.value = '';
    showError('');
    // On a desktop the next message is typed at once, whether Enter or the button sent this one.
    if (!touchFirst.matches) input.focus();
  });

  input.addEventListener('keydown', (event) => {
    // A key chat-mentions.js took (Enter picking a name) is not a send.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.defaultPrevented && !touchFirst.matches) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  scroller.addEventListener('scroll', () => {
    if (scroller.scrollTop < 40) loadOlder();
  });

  document.addEventListener('visibilitychange', () => {
    const visible = document.visibilityState === 'visible';
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'visibility', visible }));
    // Back on the page after the laptop slept: reconnect now rather than after the back-off.
    if (visible && !socket && reconnectTimer && !ended) {
      clearTimeout(reconnectTimer);
      attempts = 0;
      connect();
    }
  });

  // The server's history is text: its links become anchors and cards like the live ones, and its
  // times are written in the reader's zone, like the live ones.
  for (const content of serverRendered) fillContent(content, content.textContent);
  for (const time of log.querySelectorAll('time[datetime]')) {
    time.textContent = formatTime(time.dateTime);
    time.title = fullTime(time.dateTime);
  }
  // On a phone the history takes the height the box leaves, the box at the foot of the screen
  // without scrolling the page (app.css sizes it for a usual header; a flash message, a long group
  // name or a longer language's navigation take more, a short one less).
  if (window.matchMedia('(max-width: 575px)').matches) {
    const room = window.innerHeight - form.getBoundingClientRect().bottom - 8;
    scroller.style.height = `${Math.max(160, scroller.getBoundingClientRect().height + room)}px`;
  }
  scrollToBottom();
  connect();
})();
