import { execFile } from 'node:child_process';
import { type Measurement, ROOT, type RunningProcess, formatRow, probe, startBare, summarize } from './lib.js';

// The login storm of `npm run bench accounts`: 32 clients logging in back to back at 1,000,000
// PBKDF2 iterations, against the raw crypto.pbkdf2 rate of the machine, while a signed-in page is
// timed; and, as a control, bare node:http timed the same way, idle and while raw PBKDF2 takes
// every core, with no code of ours running: what this machine does to any server's latency when
// its cores are busy.

const CYCLES = 3;
const SECONDS = 10;
/** Clients of the storm, each signing in as its own account (`storm<i>`, seeded by bench/accounts.ts). */
export const STORM_CLIENTS = 32;

function run(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, encoding: 'utf8' }, (error, out) => (error ? reject(error) : resolve(out)));
  });
}

/** `crypto.pbkdf2` with 32 in flight for `seconds`, in a process of its own; hashes per second from 3 s in. */
async function rawPbkdf2(iterations: number, seconds: number): Promise<number> {
  const out = await run('bench/pbkdf2-rate.ts', [String(iterations), '32', String(seconds)]);
  return (JSON.parse(out) as { rate: number }).rate;
}

/** 32 clients logging in back to back for `seconds` (bench/login-storm.ts); completed logins per second. */
async function storm(url: string, csrf: string, password: string, seconds: number): Promise<{ rate: number; failures: number }> {
  return JSON.parse(await run('bench/login-storm.ts', [url, csrf, password, String(seconds), String(STORM_CLIENTS)])) as { rate: number; failures: number };
}

/** `load` started, then the page timed from 2 s in (the load's clients start within a second) for SECONDS. */
async function probeDuring<T>(load: Promise<T>, url: string, steady: Parameters<typeof probe>[1]): Promise<[T, Awaited<ReturnType<typeof probe>>]> {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return Promise.all([load, probe(url, steady)]);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export interface StormSetup {
  /** The server under test, whose user `bench` has `password` hashed at `iterations`. */
  app: RunningProcess;
  cookie: string;
  csrf: string;
  password: string;
  iterations: number;
  dir: string;
}

export async function loginStorm({ app, cookie, csrf, password, iterations, dir }: StormSetup): Promise<void> {
  console.log(`\n## Login storm: 32 concurrent logins at ${iterations.toLocaleString('en')} PBKDF2 iterations, ${CYCLES} cycles`);
  // This VM's CPU speed wanders by a fifth from minute to minute, so the storm runs in cycles,
  // each between two measurements of the raw rate, and the page idle and in the storm alternate
  // too. The storm and the raw rate both count completions from 3 s in until their deadline, at
  // full strength: the ramp and the drain are left out alike.
  const page = `${app.url}/accounts/password_change/`;
  const pageResponse = await fetch(page, { headers: { cookie } });
  const bare = await startBare(await pageResponse.text(), dir, pageResponse.headers.get('content-type') ?? undefined);
  // The page is asked for at a steady rate, as people would, not as fast as possible: a
  // closed-loop load generator would itself take the CPU the hashes need. 200 a second gives
  // 6,000 timings a side: with half as many, the p99 of the same server moved by a third from
  // run to run on this VM, more than the storm moves it.
  const steady = { rate: 200, seconds: SECONDS, headers: { cookie } };
  const timings = { idle: [] as number[], storm: [] as number[], bareIdle: [] as number[], bareBusy: [] as number[] };
  const raws = [await rawPbkdf2(iterations, 10)];
  const logins: number[] = [];
  const rawProbed: number[] = [];
  let failures = 0;
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const calm = await probe(page, steady);
      const [stormed, during] = await probeDuring(storm(app.url, csrf, password, SECONDS + 3), page, steady);
      raws.push(await rawPbkdf2(iterations, 10));
      // The control: nothing of ours runs, only raw PBKDF2 while bare node:http answers the same
      // probe. Its rate is printed beside the logins', not counted in the raw rate: it shows what
      // the probe alone (its client and any server) takes from the hashes on this machine.
      const bareCalm = await probe(`${bare.url}/`, steady);
      const [probed, bareBusy] = await probeDuring(rawPbkdf2(iterations, SECONDS + 3), `${bare.url}/`, steady);
      rawProbed.push(probed);
      logins.push(stormed.rate);
      failures += stormed.failures;
      timings.idle.push(...calm.latencies);
      timings.storm.push(...during.latencies);
      timings.bareIdle.push(...bareCalm.latencies);
      timings.bareBusy.push(...bareBusy.latencies);
      console.log(
        `  cycle ${cycle + 1}: logins ${stormed.rate.toFixed(2)}/s, raw rate ${raws.at(-2)!.toFixed(2)} before and ${raws.at(-1)!.toFixed(2)} after (hashes/s); ` +
          `page p99 ${calm.p99.toFixed(1)} ms idle, ${during.p99.toFixed(1)} ms in the storm; ` +
          `bare node:http p99 ${bareCalm.p99.toFixed(1)} ms idle, ${bareBusy.p99.toFixed(1)} ms under raw PBKDF2 (${probed.toFixed(2)} hashes/s)`,
      );
    }
  } finally {
    await bare.stop();
  }
  const seconds = CYCLES * SECONDS;
  const [idle, stormy, bareIdle, bareBusy] = [timings.idle, timings.storm, timings.bareIdle, timings.bareBusy].map((latencies) => summarize(latencies, seconds)) as [Measurement, Measurement, Measurement, Measurement];
  console.log(formatRow(`authenticated page, idle (${steady.rate} req/s)`, idle));
  console.log(formatRow('authenticated page, during the storm', stormy));
  console.log(formatRow('bare node:http, same bytes, idle', bareIdle));
  console.log(formatRow('bare node:http, under raw PBKDF2 on every core', bareBusy));
  const raw = mean(raws);
  console.log(`  raw crypto.pbkdf2 rate of this machine (32 in flight): ${raw.toFixed(2)} hashes/s on average (${raws.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`  logins completed: ${mean(logins).toFixed(2)}/s (${failures} failed) = ${((mean(logins) / raw) * 100).toFixed(1)}% of the raw rate`);
  console.log(`  control: raw crypto.pbkdf2 while bare node:http answers the same probe: ${mean(rawProbed).toFixed(2)}/s = ${((mean(rawProbed) / raw) * 100).toFixed(1)}% of the raw rate`);
  console.log(`  page p99 during the storm: ${(stormy.p99 / idle.p99).toFixed(2)}x its idle value (bare node:http under raw PBKDF2: ${(bareBusy.p99 / bareIdle.p99).toFixed(2)}x)`);
}
