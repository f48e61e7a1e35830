/** A slot held, and the function that gives it back (once, however often it is called); or why there was none. */
export type Slot = { ok: true; release: () => void } | { ok: false; reason: 'full' | 'owner-busy' };

/**
 * Long work running at once in this process: exports and imports. An export is long (yazl's
 * work grows with the square of the files: 40,000 notes take 8 s of CPU) and an import may hold
 * a 64 MiB document in memory, and any user may ask for one again and again, so the ones beyond
 * the limit wait for a free slot instead of sharing the CPU and the memory with every page. With
 * an owner, one owner holds at most one slot: a user's second import does not take the slot of
 * someone else's first.
 */
export class Slots {
  private used = 0;
  private readonly owners = new Set<number>();

  constructor(readonly max: number) {}

  /** How many slots are held now. */
  get inUse(): number {
    return this.used;
  }

  take(owner?: number): Slot {
    if (owner !== undefined && this.owners.has(owner)) return { ok: false, reason: 'owner-busy' };
    if (this.used >= this.max) return { ok: false, reason: 'full' };
    this.used += 1;
    if (owner !== undefined) this.owners.add(owner);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.used -= 1;
      if (owner !== undefined) this.owners.delete(owner);
    };
    return { ok: true, release };
  }
}
