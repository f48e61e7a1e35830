// Links in chat messages: http(s) URLs and same-site paths (/notes/12/) become anchors, built
// with DOM calls from the text (never as HTML); any other scheme (javascript:, data:) stays text.
// A link to a note or list of this site also shows as a card when the server says this reader
// may see it (GET <cards url>?ref=note:12), with a hint under it when some of the group's other
// members see a plain link instead (the card's `others`). Loaded before chat.js, which calls it.
window.groupnotesChatLinks = ({ root, nearBottom, scrollToBottom }) => {
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
  let hints = 0;
  /** What the reader is told under a card the others do not all see, by the card's `others`. */
  const HINTS = { none: root.dataset.wordCardOnlyYou, some: root.dataset.wordCardSome };

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
    title.textContent = card.title || root.dataset.wordUntitled;
    anchor.append(kind, title);
    return anchor;
  }

  /** The hint under a card that not every member sees, tied to the card for screen readers; null for one they all see. */
  function hintElement(card, anchor) {
    const words = HINTS[card.others];
    if (!words) return null;
    const hint = document.createElement('small');
    hint.className = 'chat-card-hint';
    hint.id = `chat-card-hint-${(hints += 1)}`;
    hint.dataset.ref = anchor.dataset.ref;
    hint.textContent = words;
    anchor.setAttribute('aria-describedby', hint.id);
    return hint;
  }

  function showCard(content, ref) {
    const card = cards.get(ref);
    const item = content.parentElement;
    // A message edited (or deleted) since it was asked about may no longer link there.
    const stillLinked = (content.dataset.refs ?? '').split(' ').includes(ref);
    if (!card || !item || !stillLinked || item.querySelector(`.chat-card[data-ref="${ref}"]`)) return;
    const stick = nearBottom();
    const anchor = cardElement(card);
    const hint = hintElement(card, anchor);
    item.append(...(hint ? [anchor, hint] : [anchor]));
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
    let found;
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
  return { fill: fillContent };
};
