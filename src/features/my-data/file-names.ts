// Names of the files and folders inside an export zip: readable, safe on every system, unique.

const MAX_NAME_LENGTH = 80;
/** Names Windows refuses for a file or folder, whatever the extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A title made into one path segment: letters and digits of any script kept, anything else
 * (slashes, dots, control and shell characters) a dash, so no name can climb out of its folder
 * or hide as a dot file.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}\p{M} _-]+/gu, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    // A dash that stands for punctuation next to a space ("Сільпо: субота") is a spaced dash.
    .replace(/ ?- ?/g, (dash) => (dash.length > 1 ? ' - ' : '-'))
    .replace(/^[\s-]+|[\s-]+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .trim();
  if (slug === '') return 'untitled';
  return WINDOWS_RESERVED.test(slug) ? `${slug}-` : slug;
}

/**
 * Hands out names unique within one folder, compared without case (as on macOS and Windows):
 * the second "Shopping" is "Shopping-2".
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(reserved: string[] = []) {
    for (const name of reserved) this.taken.add(name.toLowerCase());
  }

  claim(base: string, extension = ''): string {
    for (let n = 1; ; n++) {
      const name = `${n === 1 ? base : `${base}-${n}`}${extension}`;
      if (!this.taken.has(name.toLowerCase())) {
        this.taken.add(name.toLowerCase());
        return name;
      }
    }
  }
}
