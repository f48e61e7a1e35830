// Mentions in the chat: `@name` of a member marked in messages (the reader's own more strongly),
// as the server marks the history (src/features/groups/chat/message-text.tsx), and the group's
// members suggested while a name is typed after `@` in the box. What a mention is and when two
// names are one are the server's rules (chat/mentions.ts, platform/identity-key.ts), copied here
// as the page has no build step: chat/mention-marks.test.ts runs both on the same texts.
// Loaded before chat.js, which calls it.
(() => {
  const MAX_MENTIONS = 10;
  const MAX_SUGGESTIONS = 6;
  const MENTION = /(?<![\p{L}\p{N}_.+@-])@([\p{L}\p{N}_.+-]{1,150})/gu;
  // A name being typed: `@` and what of a name is before the caret.
  const TYPING = /(?<![\p{L}\p{N}_.+@-])@([\p{L}\p{N}_.+-]{0,150})$/u;
  const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
  const DOTTED_I = /i\u0307/gu;

  const identityKey = (name) =>
    name
      .normalize('NFKC')
      .replace(INVISIBLE, '')
      .toLowerCase()
      .toUpperCase()
      .toLowerCase()
      .replace(DOTTED_I, 'i')
      .normalize('NFKC')
      .replace(INVISIBLE, '')
      .replace(/\s+/gu, ' ')
      .trim();

  /** The text in plain runs and mentions of members (`mention`: the member's key), as mentionParts on the server. */
  function parts(content, memberKeys) {
    const found = [];
    const names = new Set();
    let last = 0;
    for (const match of content.matchAll(MENTION)) {
      const name = match[1];
      if (!names.has(name)) {
        names.add(name);
        if (names.size > MAX_MENTIONS) break;
      }
      const mentioned = [name, name.replace(/[.]+$/u, '')].find((candidate) => candidate !== '' && memberKeys.has(identityKey(candidate)));
      if (mentioned === undefined) continue;
      if (match.index > last) found.push({ text: content.slice(last, match.index) });
      found.push({ text: `@${mentioned}`, mention: identityKey(mentioned) });
      last = match.index + 1 + mentioned.length;
    }
    if (last < content.length) found.push({ text: content.slice(last) });
    return found;
  }

  window.groupnotesMentionRule = { identityKey, parts };

  window.groupnotesChatMentions = ({ root, input, username }) => {
    const members = JSON.parse(root.dataset.members || '[]');
    const ownKey = identityKey(username);
    const memberKeys = new Set(members.map(identityKey));
    const others = members.map((name) => ({ name, key: identityKey(name) })).filter((member) => member.key !== ownKey);

    /** Marks the mentions in a message's element, whose text (links already made anchors) stays as it is. */
    function highlight(element) {
      const ranges = [];
      let at = 0;
      for (const part of parts(element.textContent, memberKeys)) {
        if (part.mention !== undefined) ranges.push({ start: at, end: at + part.text.length, own: part.mention === ownKey });
        at += part.text.length;
      }
      if (ranges.length === 0) return;
      const nodes = [];
      const walker = document.createTreeWalker(element, window.NodeFilter.SHOW_TEXT);
      let offset = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        nodes.push({ node, start: offset });
        offset += node.data.length;
      }
      // From the last: splitting a text node leaves the offsets before the split as they were.
      for (const range of ranges.reverse()) {
        const holder = nodes.find(({ node, start }) => start <= range.start && range.end <= start + node.data.length);
        if (!holder) continue;
        const text = holder.node.splitText(range.start - holder.start);
        text.splitText(range.end - range.start);
        const mark = document.createElement('mark');
        mark.className = range.own ? 'mention mention-you' : 'mention';
        text.replaceWith(mark);
        mark.append(text);
      }
    }

    // Suggestions: a listbox under the box's control (aria-activedescendant), the focus staying in the box.
    const list = document.createElement('ul');
    list.id = 'chat-mention-list';
    list.className = 'chat-mention-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', root.dataset.wordMentionList ?? '');
    list.hidden = true;
    input.parentElement.append(list);
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', list.id);
    let shown = [];
    let active = -1;
    let typed = null;

    function typedName() {
      if (input.selectionStart !== input.selectionEnd) return null;
      const match = TYPING.exec(input.value.slice(0, input.selectionStart));
      return match ? { start: match.index, end: input.selectionStart, key: identityKey(match[1]) } : null;
    }

    function choose(index) {
      active = index;
      list.querySelectorAll('[role="option"]').forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
      const option = list.children[index];
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    }

    function close() {
      list.hidden = true;
      list.replaceChildren();
      shown = [];
      active = -1;
      input.removeAttribute('aria-activedescendant');
    }

    function suggest() {
      typed = typedName();
      const found = typed ? others.filter((member) => member.key.startsWith(typed.key)).slice(0, MAX_SUGGESTIONS) : [];
      // A name typed out in full needs no list: Enter sends, as it would without one.
      if (found.length === 0 || (found.length === 1 && found[0].key === typed.key)) return close();
      shown = found;
      list.replaceChildren(
        ...found.map((member, i) => {
          const option = document.createElement('li');
          option.id = `chat-mention-${i}`;
          option.setAttribute('role', 'option');
          option.textContent = `@${member.name}`;
          return option;
        }),
      );
      list.hidden = false;
      choose(0);
    }

    function pick(index) {
      const member = shown[index];
      if (!member || !typed) return;
      input.setRangeText(`@${member.name} `, typed.start, typed.end, 'end');
      close();
      input.focus();
    }

    input.addEventListener('input', suggest);
    input.addEventListener('click', suggest);
    input.addEventListener('keyup', (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) suggest();
    });
    input.addEventListener('blur', close);
    // Runs before chat.js's own keydown (added after this), which leaves a key handled here alone.
    input.addEventListener('keydown', (event) => {
      if (list.hidden || event.isComposing) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        choose((active + (event.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
      } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && active >= 0) {
        event.preventDefault();
        pick(active);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    });
    // A click or a tap keeps the focus (and a phone's keyboard) in the box.
    list.addEventListener('mousedown', (event) => event.preventDefault());
    list.addEventListener('click', (event) => {
      const option = event.target.closest('[role="option"]');
      if (option) pick([...list.children].indexOf(option));
    });

    return { highlight, close };
  };
})();
