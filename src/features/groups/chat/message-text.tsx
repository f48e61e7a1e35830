import { mentionParts } from './mentions.js';

/** Who a message's mentions are looked up among: the group's members and the reader, by identity key. */
export interface MentionReader {
  memberKeys: ReadonlySet<string>;
  ownKey: string;
}

/**
 * A message's text with its mentions of members marked (the reader's own more strongly), as
 * public/js/chat-mentions.js marks live ones. The text stays text: the renderer escapes it.
 */
export function MessageText({ content, reader }: { content: string; reader: MentionReader }) {
  return (
    <>
      {mentionParts(content, reader.memberKeys).map((part) =>
        part.mention === undefined ? part.text : <mark class={part.mention === reader.ownKey ? 'mention mention-you' : 'mention'}>{part.text}</mark>,
      )}
    </>
  );
}
