import { type MessageKey, type MessageValues, translator } from '../../platform/i18n/index.js';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DOCUMENT_NAME } from './export-zip.js';

/** Bounds on what an uploaded zip may unpack to: against zip bombs and archives of millions of files. */
export const ZIP_LIMITS = {
  /** Entries in the central directory, folders and ignored files included. */
  maxEntries: 20_000,
  /** One Markdown file: a note is at most 100,000 characters, up to 4 bytes each, plus its front matter. */
  maxMarkdownBytes: 512 * 1024,
  maxDocumentBytes: 64 * 1024 * 1024,
  /** Everything read, together. */
  maxTotalBytes: 128 * 1024 * 1024,
};

/** What was wrong with the upload, in words for the page. */
/** Why a zip cannot be imported: a catalogue message (English in logs, the page's language on the page). */
export class BadZip extends Error {
  constructor(
    readonly key: MessageKey,
    readonly values: MessageValues = {},
  ) {
    super(translator('en').t(key, values));
  }
}

export interface ZipContents {
  /** The text of a top-level groupnotes.json, when there is one (then the Markdown files are not read). */
  document: string | null;
  /** Every `.md` file, by its path in the zip. */
  markdown: { path: string; text: string }[];
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error) reject(new BadZip('import.not_zip', { detail: error.message }));
      else resolve(zip);
    });
  });
}

/** Every entry of the central directory, failing on a name that leaves the archive (`../`, `/etc`). */
function listEntries(zip: ZipFile): Promise<Entry[]> {
  if (zip.entryCount > ZIP_LIMITS.maxEntries) return Promise.reject(new BadZip('import.too_many_files', { count: zip.entryCount, max: ZIP_LIMITS.maxEntries }));
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: Error) => reject(new BadZip('import.damaged', { detail: error.message })));
    zip.readEntry();
  });
}

async function readEntry(zip: ZipFile, entry: Entry, maxBytes: number): Promise<string> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new BadZip('import.file_unreadable', { file: entry.fileName, detail: (error as Error).message });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // The header's size was checked; this holds even if the data lies about it.
      if (size > maxBytes) throw new BadZip('import.file_over', { file: entry.fileName, max: String(maxBytes) });
      chunks.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    throw error instanceof BadZip ? error : new BadZip('import.file_damaged', { file: entry.fileName, detail: (error as Error).message });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new BadZip('import.not_utf8', { file: entry.fileName });
  }
}

/** Folders, macOS resource forks (`__MACOSX/`) and hidden files are not notes. */
function isMarkdownNote(name: string): boolean {
  return /\.md$/i.test(name) && !name.split('/').some((segment) => segment.startsWith('.') || segment === '__MACOSX');
}

/** Reads an uploaded zip file within ZIP_LIMITS; BadZip says what was wrong. */
export async function readZipUpload(path: string): Promise<ZipContents> {
  const zip = await openZip(path);
  try {
    const entries = await listEntries(zip);
    const document = entries.find((entry) => entry.fileName === DOCUMENT_NAME);
    const wanted = document ? [document] : entries.filter((entry) => isMarkdownNote(entry.fileName));
    const limitOf = (entry: Entry) => (entry === document ? ZIP_LIMITS.maxDocumentBytes : ZIP_LIMITS.maxMarkdownBytes);
    let total = 0;
    for (const entry of wanted) {
      if (entry.uncompressedSize > limitOf(entry)) throw new BadZip('import.file_too_big', { file: entry.fileName, size: String(entry.uncompressedSize), max: String(limitOf(entry)) });
      total += entry.uncompressedSize;
    }
    if (total > ZIP_LIMITS.maxTotalBytes) throw new BadZip('import.too_big', { size: String(total), max: String(ZIP_LIMITS.maxTotalBytes) });
    if (!document && wanted.length === 0) throw new BadZip('import.empty');
    const texts: { path: string; text: string }[] = [];
    for (const entry of wanted) texts.push({ path: entry.fileName, text: await readEntry(zip, entry, limitOf(entry)) });
    return document ? { document: texts[0]!.text, markdown: [] } : { document: null, markdown: texts };
  } finally {
    zip.close();
  }
}
