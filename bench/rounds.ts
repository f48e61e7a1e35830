import { formatShare, shareOfBare } from './ceiling.js';
import { type Measurement, type RunningProcess, formatRow, measure, startBare } from './lib.js';

// The app against the bare node:http baseline in alternating rounds, compared round by round.

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface Comparison {
  /** Requests/s averaged over the rounds; p50 and p99 the median round's. */
  ours: Measurement;
  baseline: Measurement;
  /** The median of the rounds' ratios of our requests/s to bare node's. */
  share: number;
}

export interface Round<T extends Measurement = Measurement> {
  ours: T;
  baseline: Measurement;
}

/**
 * The app and the bare baseline in alternating rounds (`rounds` of each, `seconds` in all for
 * each, the order swapped every round), compared round by round: this VM's speed wanders by a
 * fifth from one minute to the next, and a 10-second run of each, one after the other, measured
 * that as much as the servers. `runOurs` and `runBare` load their server for the seconds given;
 * a warm-up of each comes first. `onRound`, when given, sees every round as it ends.
 */
export async function alternateRuns<T extends Measurement>(
  runOurs: (seconds: number) => Promise<T>,
  runBare: (seconds: number) => Promise<Measurement>,
  { rounds = 4, seconds = 12, warmUp = 2, onRound }: { rounds?: number; seconds?: number; warmUp?: number; onRound?: (round: Round<T>, index: number) => void } = {},
): Promise<Comparison & { rounds: Round<T>[] }> {
  await runOurs(warmUp);
  await runBare(1);
  const each = Math.max(1, Math.round(seconds / rounds));
  const results: Round<T>[] = [];
  for (let index = 0; index < rounds; index++) {
    let round: Round<T>;
    if (index % 2 === 0) {
      const ours = await runOurs(each);
      round = { ours, baseline: await runBare(each) };
    } else {
      const baseline = await runBare(each);
      round = { ours: await runOurs(each), baseline };
    }
    results.push(round);
    onRound?.(round, index);
  }
  const combine = (all: Measurement[]): Measurement => ({
    rps: all.reduce((sum, m) => sum + m.rps, 0) / all.length,
    p50: median(all.map((m) => m.p50)),
    p99: median(all.map((m) => m.p99)),
    errors: all.reduce((sum, m) => sum + m.errors, 0),
    non2xx: all.reduce((sum, m) => sum + m.non2xx, 0),
  });
  return {
    ours: combine(results.map((r) => r.ours)),
    baseline: combine(results.map((r) => r.baseline)),
    share: median(results.map((r) => r.ours.rps / r.baseline.rps)),
    rounds: results,
  };
}

/** One URL on the app against the bare baseline, in alternating rounds (alternateRuns). */
export function alternate(
  ours: { url: string; headers?: Record<string, string> },
  bare: { url: string },
  options: { rounds?: number; seconds?: number } = {},
): Promise<Comparison & { rounds: Round[] }> {
  return alternateRuns(
    (duration) => measure(ours.url, { headers: ours.headers, duration }),
    (duration) => measure(bare.url, { duration }),
    options,
  );
}

/** Prints a comparison: both servers, every round, the share of bare node's rate (unless the client may be the limit). */
export function printComparison(label: string, bytes: number, { ours, baseline, rounds }: Awaited<ReturnType<typeof alternate>>): void {
  console.log(formatRow(`${label} (groupnotes)`, ours));
  console.log(formatRow(`${label} (bare node:http, same ${bytes} bytes)`, baseline));
  const { refused } = shareOfBare(ours.rps, baseline.rps);
  if (refused) return console.log(`  ${label}: ${refused}`);
  const each = rounds.map((r) => `${formatShare(r.ours.rps, r.baseline.rps)} p99 ${r.ours.p99}/${r.baseline.p99} ms`).join(', ');
  console.log(`  ${label}: ${formatShare(ours.rps, baseline.rps)} node:http (rounds: ${each})`);
}

/** Runs `path` on the app and the same bytes on the bare baseline, alternating; prints both and the ratio. */
export async function compareWithBare(label: string, app: RunningProcess, path: string, headers: Record<string, string>, dir: string): Promise<Comparison> {
  const page = await fetch(app.url + path, { headers });
  if (page.status !== 200) throw new Error(`${label}: ${path} answered ${page.status}`);
  const body = await page.text();
  const bare = await startBare(body, dir, page.headers.get('content-type') ?? undefined);
  try {
    const result = await alternate({ url: app.url + path, headers }, { url: `${bare.url}/` });
    printComparison(label, body.length, result);
    return result;
  } finally {
    await bare.stop();
  }
}
