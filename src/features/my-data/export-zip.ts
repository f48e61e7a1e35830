import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Notebook, Tag } from '../../db/schema.js';
import { exportDocument } from './export-document.js';
import type { ExportRepository } from './export-repository.js';
import { UniqueNames, slugify } from './file-names.js';
import { chatLine, type ListWords, noteMarkdown, shoppingListMarkdown, todoListMarkdown } from './markdown-files.js';
import type { Translator } from '../../platform/i18n/index.js';

/** Whose export it is, and how they read: their lists' and chat's files are written for them. */
export interface ExportOwner {
  id: number;
  username: string;
  timezone: string;
}

export const DOCUMENT_NAME = 'groupnotes.json';

/**
 * A user's export as a zip stream: groupnotes.json first (rows read a page at a time, written as
 * they come), then one Markdown file per note (in its notebook's folder, or at the top), then
 * the lists, then the user's own chat messages, a file per group, in `t`'s language. Nothing is built in memory: the Markdown files of one page are added only once
 * yazl has reached those of the page before, so at most two pages wait, and the reply's
 * backpressure reaches back to the database reads.
 */
export function exportZip(repository: ExportRepository, owner: ExportOwner, t: Translator, now = Date.now()): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  void fill(zip, repository, owner, t, now).catch((error: unknown) => {
    if (!(error instanceof ExportAborted)) output.destroy(error as Error);
  });
  return output;
}

async function fill(zip: ZipFile, repository: ExportRepository, owner: ExportOwner, t: Translator, now: number): Promise<void> {
  const words: ListWords = { t: t.t, language: t.language };
  const mtime = new Date(now);
  const output = zip.outputStream as Readable;
  const [notebooks, tags, groups] = await Promise.all([repository.notebooks(owner.id), repository.tags(owner.id), repository.referencedGroups(owner.id)]);
  const document = Readable.from(exportDocument(repository, owner, notebooks, tags, now));
  // yazl pipes the stream without listening for its errors: a failed read ends the download.
  document.once('error', (error) => output.destroy(error));
  zip.addReadStream(document, DOCUMENT_NAME, { mtime });

  const top = new UniqueNames([DOCUMENT_NAME]);
  const folders = notebookFolders(notebooks, top);
  const inFolder = new Map<string, UniqueNames>();
  const namesIn = (folder: string) => inFolder.get(folder) ?? inFolder.set(folder, new UniqueNames()).get(folder)!;
  const notebookById = new Map(notebooks.map((notebook) => [notebook.id, notebook]));
  const tagById = new Map<number, Tag>(tags.map((tag) => [tag.id, tag]));
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const todoFolder = top.claim(t.t('export.folder_todo'));
  const shoppingFolder = top.claim(t.t('export.folder_shopping'));
  const chatFolder = top.claim(t.t('export.folder_chat'));

  const pager = new PageAdder(zip, output, mtime);
  for await (const page of repository.notes(owner.id)) {
    await pager.add(page.map((note) => {
      const folder = note.notebook_id === null ? '' : (folders.get(note.notebook_id) ?? '');
      const name = (folder ? namesIn(folder) : top).claim(slugify(note.title), '.md');
      return { path: folder ? `${folder}/${name}` : name, text: noteMarkdown(note, notebookById, tagById, groupNames), mtime: new Date(Number(note.updated_at)) };
    }));
  }
  for await (const page of repository.todoLists(owner.id)) {
    await pager.add(page.map((list) => ({ path: `${todoFolder}/${namesIn(todoFolder).claim(slugify(list.title), '.md')}`, text: todoListMarkdown(list, groupNames, words) })));
  }
  for await (const page of repository.shoppingLists(owner.id)) {
    await pager.add(page.map((list) => ({ path: `${shoppingFolder}/${namesIn(shoppingFolder).claim(slugify(list.title), '.md')}`, text: shoppingListMarkdown(list, groupNames, words) })));
  }
  // A group's messages are one file; pages of messages come by id, so a group's lines are gathered
  // first (at most the user's own messages: text, bounded per message by the chat's limit).
  const chats = new Map<number, { name: string; lines: string[] }>();
  for await (const page of repository.chatMessages(owner.id)) {
    for (const message of page) {
      const chat = chats.get(message.group_id) ?? chats.set(message.group_id, { name: message.group_name, lines: [] }).get(message.group_id)!;
      chat.lines.push(chatLine(message, owner.timezone, t.language));
    }
  }
  await pager.add([...chats.values()].map(({ name, lines }) => ({
    path: `${chatFolder}/${namesIn(chatFolder).claim(slugify(name), '.md')}`,
    text: `# ${t.t('export.chat_heading', { group: name })}\n\n${lines.join('\n')}\n`,
  })));
  await pager.flush();
  zip.end();
}

/** One folder name per notebook, unique among the top-level names. */
function notebookFolders(notebooks: Notebook[], top: UniqueNames): Map<number, string> {
  return new Map(notebooks.map((notebook) => [notebook.id, top.claim(slugify(notebook.title))]));
}

interface TextFile {
  path: string;
  text: string;
  mtime?: Date;
}

/** The download was closed (the client went away): the export stops reading. */
class ExportAborted extends Error {}

/** Adds files a page at a time, waiting until yazl has started on the previous page's last file. */
class PageAdder {
  private reached: Promise<void> = Promise.resolve();
  private readonly closed: Promise<void>;

  constructor(
    private readonly zip: ZipFile,
    output: Readable,
    private readonly mtime: Date,
  ) {
    this.closed = new Promise((resolve) => output.once('close', resolve));
  }

  async add(files: TextFile[]): Promise<void> {
    if ((await Promise.race([this.reached.then(() => 'reached'), this.closed.then(() => 'closed')])) === 'closed') throw new ExportAborted();
    this.reached = new Promise<void>((resolve) => {
      files.forEach((file, index) => {
        const last = index === files.length - 1;
        this.zip.addReadStreamLazy(file.path, { mtime: file.mtime ?? this.mtime }, (callback) => {
          if (last) resolve();
          callback(null, Readable.from([Buffer.from(file.text)]));
        });
      });
      if (files.length === 0) resolve();
    });
  }

  async flush(): Promise<void> {
    await this.add([]);
  }
}
