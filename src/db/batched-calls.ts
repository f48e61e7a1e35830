/**
 * Answers many calls with one run. The first call schedules a run at setImmediate, after the
 * turn's poll phase, by when every request read from the sockets that were ready has asked. At
 * most `maxRuns` runs are in flight: calls made meanwhile wait for one of them to end and go
 * together in the next (under load a run's round trip gathers the calls of several turns; when
 * nothing is in flight a call waits for no one). A run takes at most `max` calls, and a run that
 * fails fails its own calls only. `run` gets the arguments in the order asked and answers each in
 * the same place. What is pending is bounded by the requests a process has in flight (each asks
 * once), and the runs' own waits are bounded by theirs.
 */
export class BatchedCalls<A, R> {
  private pending: { argument: A; resolve(value: R): void; reject(error: unknown): void }[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly run: (batch: readonly A[]) => Promise<readonly R[]>,
    private readonly max: number,
    private readonly maxRuns = Infinity,
  ) {
    if (!(max >= 1) || !(maxRuns >= 1)) throw new Error('a run takes one call at least, and one run may be in flight');
  }

  call(argument: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ argument, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= this.maxRuns) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private ended(): void {
    this.inFlight -= 1;
    this.schedule();
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0 && this.inFlight < this.maxRuns) {
      const calls = this.pending.splice(0, this.max);
      const asked = calls.map((call) => call.argument);
      this.inFlight += 1;
      // Async, so that a run that throws at once fails its calls as one that fails later does.
      // The next run is scheduled as this one ends, before its callers go on.
      (async () => this.run(asked))().then(
        (answers) => {
          this.ended();
          if (answers.length !== calls.length) {
            const error = new Error(`a run answered ${answers.length} of ${calls.length} calls`);
            calls.forEach((call) => call.reject(error));
          } else {
            calls.forEach((call, index) => call.resolve(answers[index]!));
          }
        },
        (error: unknown) => {
          this.ended();
          calls.forEach((call) => call.reject(error));
        },
      );
    }
  }
}
