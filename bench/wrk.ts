import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The closed-loop load generator: wrk (Debian's package, written in C). A Node client (autocannon)
// saturated near 10,000 requests a second on this 2-core machine, so bare node:http measured
// through it was the client's limit; wrk drives the same bare server at 30,000 and more. Each run
// is given a list of requests (path and headers: a user's cookie, say), formatted once in wrk's Lua
// and sent in turn, each thread from its own place in the list; every answer that is not a 200 is
// counted, with the first such status.

const run = promisify(execFile);

export interface WrkRequest {
  path: string;
  headers?: Record<string, string>;
}

export interface WrkResult {
  /** Requests a second over the run. */
  rps: number;
  /** Latency percentiles, in milliseconds. */
  p50: number;
  p99: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** Answers that were not a 200, and the status of the first. */
  non200: number;
  firstOther?: number;
}

/** Requests the script holds: random draws of the crowd's reads repeat after this many. */
const MAX_REQUESTS = 20_000;

/** A Lua string literal for `value` (printable ASCII only: paths, cookies and tokens are). */
function lua(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`not printable ASCII, cannot go into the wrk script: ${JSON.stringify(value)}`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The wrk script that sends `requests` in turn and prints the run's figures as one JSON line. */
export function wrkScript(requests: WrkRequest[]): string {
  if (!requests.length || requests.length > MAX_REQUESTS) throw new Error(`wrk takes 1 to ${MAX_REQUESTS} requests, not ${requests.length}`);
  const entries = requests.map(({ path, headers = {} }) => {
    const fields = Object.entries(headers).map(([name, value]) => `[${lua(name)}] = ${lua(value)}`);
    return `{ ${lua(path)}, { ${fields.join(', ')} } }`;
  });
  return `
local list = {
${entries.join(',\n')}
}
local threads = {}
function setup(thread)
  thread:set("first", #threads)
  table.insert(threads, thread)
end
local formatted = {}
local at = 0
non200 = 0
firstOther = 0
function init(args)
  for index, entry in ipairs(list) do formatted[index] = wrk.format("GET", entry[1], entry[2]) end
  at = (first * 7919) % #formatted
end
function request()
  at = at % #formatted + 1
  return formatted[at]
end
function response(status, headers, body)
  if status ~= 200 then
    non200 = non200 + 1
    if firstOther == 0 then firstOther = status end
  end
end
function done(summary, latency, requests)
  local others, firstStatus = 0, 0
  for _, thread in ipairs(threads) do
    others = others + thread:get("non200")
    if firstStatus == 0 then firstStatus = thread:get("firstOther") end
  end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d,"non200":%d,"firstOther":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, others, firstStatus))
end
`;
}

let checked: Promise<void> | undefined;

/** Fails with one line when wrk is not installed. */
function checkWrk(): Promise<void> {
  checked ??= run('wrk', ['--version']).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => {
      // wrk --version prints its version and exits 1; only a missing binary is a problem.
      if (error.code === 'ENOENT') throw new Error('wrk is not installed: apt-get install wrk (the benchmarks drive reads with it)');
    },
  );
  return checked;
}

/**
 * wrk against `origin` for `seconds`, on `connections` kept-alive connections spread over
 * `threads` threads, sending `requests` in turn.
 */
export async function wrk(
  origin: string,
  requests: WrkRequest[],
  { connections = 32, seconds = 10, threads = 2 }: { connections?: number; seconds?: number; threads?: number } = {},
): Promise<WrkResult> {
  await checkWrk();
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-wrk-'));
  try {
    const script = join(dir, 'requests.lua');
    writeFileSync(script, wrkScript(requests));
    const args = ['-t', String(Math.min(threads, connections)), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', script, origin];
    const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20, timeout: (seconds + 30) * 1000 });
    const line = stdout.split('\n').find((text) => text.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no figures:\n${stdout}`);
    const figures = JSON.parse(line) as { requests: number; micros: number; p50: number; p99: number; errors: number; non200: number; firstOther: number };
    return {
      rps: figures.requests / (figures.micros / 1e6),
      p50: figures.p50 / 1000,
      p99: figures.p99 / 1000,
      errors: figures.errors,
      non200: figures.non200,
      ...(figures.firstOther ? { firstOther: figures.firstOther } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
