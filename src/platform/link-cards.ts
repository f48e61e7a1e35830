// Links in the chat to things of this site (a note, a list) shown as cards. The chat does not know
// the features it links to: each feature registers its kind here with how to find, among some
// ids, those a user may read, through its own visibility query. What a user may not read is
// simply absent from the answer, the same as what does not exist.

/** What a card shows of an object the viewer may read. */
export interface LinkCard {
  kind: string;
  /** The kind in words: `Note`, `To-do list`. */
  label: string;
  id: number;
  title: string;
  /** The object's page: `/notes/12/`. */
  url: string;
}

export interface LinkCardKind {
  /** The name in a reference (`note` in `note:12`). */
  kind: string;
  label: string;
  /** The pages' common prefix: an object's page is `${path}${id}/`. */
  path: string;
  /** Of these ids, those the user may read, with their titles: the feature's scoped query. */
  visible: (userId: number, ids: readonly number[]) => Promise<{ id: number; title: string }[]>;
}

/** A link target named by kind and id: `note:12`. */
export interface LinkRef {
  kind: string;
  id: number;
}

export class LinkCards {
  private readonly kinds = new Map<string, LinkCardKind>();

  register(kind: LinkCardKind): void {
    if (this.kinds.has(kind.kind)) throw new Error(`link card kind ${kind.kind} registered twice`);
    this.kinds.set(kind.kind, kind);
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** Each kind's page prefix, for the client to recognise links: `{ note: '/notes/' }`. */
  paths(): Record<string, string> {
    return Object.fromEntries([...this.kinds.values()].map((kind) => [kind.kind, kind.path]));
  }

  /** The cards of these references that `userId` may read, one query per kind asked for. */
  async resolve(userId: number, refs: readonly LinkRef[]): Promise<LinkCard[]> {
    const idsByKind = new Map<string, Set<number>>();
    for (const ref of refs) {
      if (!this.kinds.has(ref.kind)) continue;
      let ids = idsByKind.get(ref.kind);
      if (!ids) idsByKind.set(ref.kind, (ids = new Set()));
      ids.add(ref.id);
    }
    const found = await Promise.all(
      [...idsByKind].map(async ([name, ids]) => {
        const kind = this.kinds.get(name)!;
        const rows = await kind.visible(userId, [...ids]);
        return rows.map((row) => ({ kind: kind.kind, label: kind.label, id: row.id, title: row.title, url: `${kind.path}${row.id}/` }));
      }),
    );
    return found.flat();
  }
}
