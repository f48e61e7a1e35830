/**
 * Answers the calls made in one turn of the event loop with one run: the first call schedules the
 * run at setImmediate, after the turn's poll phase, by when every request read from the sockets
 * that were ready has asked. A run takes at most `max` calls (the rest wait for the next run, at
 * once), and a run that fails fails its own calls only. `run` gets the arguments in the order
 * asked and answers each in the same place. Nothing waits past the turn: every call asked is in
 * a run started at the next setImmediate, so what is pending is bounded by the requests a
 * process has in flight (each asks once), and the runs' own waits are bounded by theirs.
 */
export class Coalescer<A, R> {
  private pending: { argument: A; resolve(value: R): void; reject(error: unknown): void }[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (batch: readonly A[]) => Promise<readonly R[]>,
    private readonly max: number,
  ) {
    if (!(max >= 1)) throw new Error('a run takes one call at least');
  }

  call(argument: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ argument, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const calls = this.pending.splice(0, this.max);
      const asked = calls.map((call) => call.argument);
      // Async, so that a run that throws at once fails its calls as one that fails later does.
      (async () => this.run(asked))().then(
        (answers) => {
          if (answers.length !== calls.length) throw new Error(`a run answered ${answers.length} of ${calls.length} calls`);
          calls.forEach((call, index) => call.resolve(answers[index]!));
        },
      ).catch((error: unknown) => calls.forEach((call) => call.reject(error)));
    }
  }
}
