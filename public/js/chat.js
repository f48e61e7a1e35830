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
  const CLOSE_NO_ACCESS = 4403;

  const known = new Set();
  for (const item of log.querySelectorAll('li[data-message-id]')) known.add(Number(item.dataset.messageId));
  const serverRendered = log.querySelectorAll('.chat-content');
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

  function formatTime(iso) {
    const date = new Date(iso);
    const sameDay = date.toDateString() === new Date().toDateString();
    return sameDay
      ? date.toLocaleTimeString(undefined, { timeStyle: 'short' })
      : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }

  function messageElement(message) {
    const own = message.author === username;
    const item = document.createElement('li');
    item.className = own ? 'chat-message own' : 'chat-message';
    item.dataset.messageId = String(message.message_id);
    const header = document.createElement('header');
    const author = document.createElement('strong');
    author.className = 'chat-author';
    author.textContent = own ? 'You' : message.author;
    const time = document.createElement('time');
    time.dateTime = message.timestamp;
    time.title = message.timestamp;
    time.textContent = formatTime(message.timestamp);
    header.append(author, ' ', time);
    const content = document.createElement('p');
    content.className = 'chat-content';
    fillContent(content, message.content);
    item.append(header, content);
    return item;
  }

  // Links: http(s) URLs and same-site paths (/notes/12/) become anchors, built with DOM calls from
  // the text (never as HTML); any other scheme (javascript:, data:) stays text. A link to a note or
  // list of this site is also shown as a card, if the server says this reader may see it.
  const LINK = /\bhttps?:\/\/[^\s<>"]+|(?<![\w/.:])\/[a-z][^\s<>"]*/gi;
  const TRAILING = /[.,;:!?'")\]]+$/;
  const SITE_PATH = /^\/[a-z][\w\-/]*\/(?:[?#]\S*)?$/i;
  const linkPaths = JSON.parse(root.dataset.linkPaths || '{}');
  const cardsUrl = root.dataset.cardsUrl;
  const MAX_REFS = 50;
  /** ref (`note:12`) -> the card, or null once the server said there is none for this reader. */
  const cards = new Map();
  /** Messages whose refs are being asked about, by ref. */
  const waiting = new Map();
  let askTimer = null;

  function linkUrl(text) {
    try {
      const url = new URL(text, location.origin);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
    } catch {
      return null;
    }
  }

  function refOf(url) {
    if (url.origin !== location.origin) return null;
    for (const [kind, path] of Object.entries(linkPaths)) {
      if (!url.pathname.startsWith(path)) continue;
      const match = /^([0-9]{1,10})\/$/.exec(url.pathname.slice(path.length));
      if (match) return `${kind}:${Number(match[1])}`;
    }
    return null;
  }

  /** Puts the text in `element`, its links as anchors; returns the card refs it links to. */
  function fillContent(element, text) {
    element.textContent = '';
    const refs = [];
    let last = 0;
    for (const match of text.matchAll(LINK)) {
      const raw = match[0].replace(TRAILING, '');
      // A bare path is a link only in this site's shape (`/notes/12/`): not any word after a slash.
      const url = raw && (!raw.startsWith('/') || SITE_PATH.test(raw)) ? linkUrl(raw) : null;
      if (!url) continue;
      element.append(text.slice(last, match.index));
      const anchor = document.createElement('a');
      anchor.setAttribute('href', url.origin === location.origin ? url.pathname + url.search + url.hash : url.href);
      anchor.setAttribute('rel', 'noopener noreferrer nofollow');
      anchor.textContent = raw;
      element.append(anchor);
      last = match.index + raw.length;
      const ref = refOf(url);
      if (ref && !refs.includes(ref)) refs.push(ref);
    }
    element.append(text.slice(last));
    if (refs.length > 0) {
      element.dataset.refs = refs.join(' ');
      for (const ref of refs) showCardOrAsk(element, ref);
    }
    return refs;
  }

  function cardElement(card) {
    const anchor = document.createElement('a');
    anchor.className = 'chat-card';
    anchor.setAttribute('href', card.url);
    anchor.dataset.ref = `${card.kind}:${card.id}`;
    const kind = document.createElement('span');
    kind.className = 'chat-card-kind';
    kind.textContent = card.label;
    const title = document.createElement('strong');
    title.className = 'chat-card-title';
    title.textContent = card.title || '(untitled)';
    anchor.append(kind, title);
    return anchor;
  }

  function showCard(content, ref) {
    const card = cards.get(ref);
    const item = content.parentElement;
    if (!card || !item || item.querySelector(`.chat-card[data-ref="${ref}"]`)) return;
    const stick = nearBottom();
    item.append(cardElement(card));
    if (stick) scrollToBottom();
  }

  function showCardOrAsk(content, ref) {
    if (cards.has(ref)) {
      // Shown once the message is in the page (a new element is filled before it is inserted).
      queueMicrotask(() => showCard(content, ref));
      return;
    }
    let list = waiting.get(ref);
    if (!list) waiting.set(ref, (list = []));
    list.push(content);
    askTimer ??= setTimeout(askForCards, 50);
  }

  /** Asks for the cards of every link waiting, in batches: one request for a whole page of history. */
  async function askForCards() {
    askTimer = null;
    const refs = [...waiting.keys()].slice(0, MAX_REFS);
    const asked = refs.map((ref) => [ref, waiting.get(ref)]);
    for (const ref of refs) waiting.delete(ref);
    if (waiting.size > 0) askTimer = setTimeout(askForCards, 0);
    let found = [];
    try {
      const query = refs.map((ref) => `ref=${encodeURIComponent(ref)}`).join('&');
      const response = await fetch(`${cardsUrl}?${query}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) return; // Plain links stay; asked again with the next messages that link there.
      found = (await response.json()).cards;
    } catch {
      return;
    }
    for (const [ref] of asked) cards.set(ref, null);
    for (const card of found) cards.set(`${card.kind}:${card.id}`, card);
    for (const [ref, contents] of asked) for (const content of contents) showCard(content, ref);
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
    const stick = nearBottom() || message.author === username;
    if (insert(message) && stick) scrollToBottom();
  }

  function scheduleReconnect() {
    const delay = Math.min(30_000, 1000 * 2 ** attempts) * (0.5 + Math.random() / 2);
    attempts += 1;
    setStatus('offline', `Disconnected. Reconnecting in ${Math.ceil(delay / 1000)} s…`);
    reconnectTimer = setTimeout(connect, delay);
  }

  function connect() {
    reconnectTimer = null;
    if (ended) return;
    setStatus('connecting', 'Connecting…');
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${scheme}//${location.host}${root.dataset.socketPath}`);
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      attempts = 0;
      setStatus('online', 'Connected');
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
      } else if (frame.type === 'error') {
        // Frames are answered in order, so the error is about the last message sent: give its
        // text back rather than lose it (unless something new has been typed meanwhile).
        const restored = unconfirmed !== null && input.value === '';
        if (restored) input.value = unconfirmed;
        unconfirmed = null;
        showError(`Not sent: ${frame.error}${restored ? ' Your message is back in the box.' : ''}`);
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
    setStatus('ended', 'Chat closed: you are no longer a member of this group, it was deleted, or you were logged out. Reload the page to check.');
    input.disabled = true;
    form.querySelector('button').disabled = true;
  }

  async function loadOlder() {
    if (!hasOlder || loadingOlder || known.size === 0) return;
    loadingOlder = true;
    olderNote.hidden = false;
    olderNote.textContent = 'Loading older messages…';
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
      olderNote.textContent = 'This is the beginning of the conversation.';
      olderNote.hidden = hasOlder;
    } catch {
      olderNote.textContent = 'Older messages could not be loaded. Scroll up to try again.';
    } finally {
      loadingOlder = false;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const content = input.value.trim();
    if (!content) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError('Not connected right now; your message is still in the box.');
      return;
    }
    socket.send(JSON.stringify({ content }));
    unconfirmed = content;
    input.value = '';
    showError('');
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  scroller.addEventListener('scroll', () => {
    if (scroller.scrollTop < 40) loadOlder();
  });

  // Back on the page after the laptop slept: reconnect now rather than after the back-off.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !socket && reconnectTimer && !ended) {
      clearTimeout(reconnectTimer);
      attempts = 0;
      connect();
    }
  });

  // The server's history is text: its links become anchors and cards like the live ones.
  for (const content of serverRendered) fillContent(content, content.textContent);
  scrollToBottom();
  connect();
})();
