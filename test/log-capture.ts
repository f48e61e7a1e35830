// The real app's log, kept line by line: what it would have written to stdout, for tests of what is logged.

/** A log destination for buildTestApp: every line the app's logger writes, as written. */
export class LogCapture {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  /** Everything written so far, as one text (what an operator's log file would hold). */
  text(): string {
    return this.lines.join('');
  }

  /** Each line parsed (pino writes one JSON object a line). */
  entries(): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}
