/**
 * Exports running at once in this process. An export is long (yazl's work grows with the square
 * of the files: 40,000 notes take 8 s of CPU) and any user may ask for one again and again, so
 * the ones beyond the limit wait for a free slot instead of sharing the CPU with every page.
 */
export class ExportSlots {
  private used = 0;

  constructor(readonly max: number) {}

  /** A slot and the function that gives it back (once, however often it is called), or null when all are taken. */
  take(): (() => void) | null {
    if (this.used >= this.max) return null;
    this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
    };
  }
}
