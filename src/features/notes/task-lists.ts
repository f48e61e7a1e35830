import type MarkdownIt from 'markdown-it';
type Md = InstanceType<typeof MarkdownIt>;
type StateCore = Parameters<Parameters<Md['core']['ruler']['after']>[2]>[0];

const MARKER = /^\[([ xX])\][ \t]+/;

/**
 * GitHub-style task lists: a list item whose text starts with `[ ] ` or `[x] ` gets a disabled
 * (read-only) checkbox, wrapped with the item's text in a <label> so that it is named by it. The
 * only markup added is the fixed strings below; the item's own text stays markdown-it's escaped
 * tokens (raw HTML is off), so a task adds nothing a note's author controls to the page.
 */
export const taskLists = (md: Md): void => {
  md.core.ruler.after('inline', 'task_lists', (state: StateCore) => {
    const tokens = state.tokens;
    for (let i = 2; i < tokens.length; i += 1) {
      const inline = tokens[i]!;
      if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      const marker = first?.type === 'text' ? MARKER.exec(first.content) : null;
      if (!first || !marker) continue;
      first.content = first.content.slice(marker[0].length);
      const checked = marker[1] !== ' ';
      const open = new state.Token('html_inline', '', 0);
      open.content = `<label class="task"><input type="checkbox" class="task-checkbox" disabled${checked ? ' checked' : ''}> `;
      const close = new state.Token('html_inline', '', 0);
      close.content = '</label>';
      inline.children!.unshift(open);
      inline.children!.push(close);
      tokens[i - 2]!.attrJoin('class', 'task-list-item');
      markList(tokens, i - 2);
    }
  });
};

/** The list holding item `itemIndex` (the nearest unclosed list opening before it) gets its class once. */
function markList(tokens: StateCore['tokens'], itemIndex: number): void {
  const level = tokens[itemIndex]!.level - 1;
  for (let j = itemIndex - 1; j >= 0; j -= 1) {
    const token = tokens[j]!;
    if (token.level === level && (token.type === 'bullet_list_open' || token.type === 'ordered_list_open')) {
      if (!String(token.attrGet('class') ?? '').includes('contains-task-list')) token.attrJoin('class', 'contains-task-list');
      return;
    }
  }
}
