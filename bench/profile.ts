// `tsx bench/profile.ts DIR`: where the CPU time of each process went, from the V8 CPU profiles
// (`.cpuprofile`) in DIR, as a run with BENCH_CPU_PROF=DIR writes them. For each process: its
// busy time by part (self time: the frames' own samples, by the file they are in), then the time
// spent inside each stage of a request (inclusive: a stage's frames and what they call, counted
// once per sample however deep the recursion).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Parts of the process, first match wins, by the frame's file (or V8's own names). */
const PARTS: [string, (url: string, name: string) => boolean][] = [
  ['idle', (url, name) => name === '(idle)'],
  ['garbage collection', (url, name) => name === '(garbage collector)'],
  ['V8 and native code (program)', (url, name) => name === '(program)'],
  ['Fastify and its router', (url) => /node_modules\/(fastify|find-my-way|avvio|@fastify|light-my-request|fast-json-stringify|fast-querystring|toad-cache)/.test(url)],
  ['better-sqlite3', (url) => url.includes('node_modules/better-sqlite3')],
  ['Kysely', (url) => url.includes('node_modules/kysely')],
  ['pg', (url) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool)\//.test(url)],
  ['ioredis', (url) => url.includes('node_modules/ioredis')],
  ['ws', (url) => url.includes('node_modules/ws/')],
  ['other packages', (url) => url.includes('node_modules/')],
  ['ours: views (rendering, page cache)', (url) => url.includes('/platform/views/')],
  ['ours: request chain (session, CSRF, headers)', (url) => url.includes('/platform/chain/')],
  ['ours: logging and process', (url) => url.includes('/platform/process/')],
  ['ours: hub (chat fan-out)', (url) => url.includes('/platform/hub/')],
  ['ours: database layer', (url) => url.includes('/db/')],
  ['ours: features', (url) => url.includes('/features/')],
  ['ours: other', (url) => url.includes('/dist/') || url.includes('/src/')],
  ['node: http, net, streams', (url) => /node:(_http|http|net|stream|internal\/(http|net|streams|stream_base|js_stream))/.test(url) || /^node:internal\/(http|streams)/.test(url)],
  ['node: other', (url) => url.startsWith('node:')],
  ['native (no file)', () => true],
];

/** Stages of a request: the time spent inside frames of these files (and what they call). */
const STAGES: [string, RegExp][] = [
  ['the request chain (session statement, CSRF, security headers)', /\/platform\/chain\//],
  ['the session statement (reading the session, counts and tokens)', /\/platform\/chain\/session-(query|layer)\.|\/platform\/chain\/session\./],
  ['access checks and page data (features)', /\/features\//],
  ['the database layer (ours, Kysely, driver)', /\/db\/|node_modules\/(kysely|better-sqlite3|pg|pg-protocol)\//],
  ['rendering (JSX walker, layout)', /\/platform\/views\/(html|layout|render|forms|controls|audience|for-viewer)\./],
  ['the page cache (lookup, copies, buffer pool)', /\/platform\/views\/(page-cache|buffer-pool)\./],
  ['logging (request log)', /\/platform\/process\/request-log/],
  ['the hub (chat fan-out)', /\/platform\/hub\//],
  ['Fastify (routing, hooks, reply)', /node_modules\/(fastify|find-my-way|avvio)\//],
];

function analyse(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const parts = new Map<string, number>();
  const stages = new Map<string, number>();
  for (const [id, micros] of self) {
    const { url, functionName } = byId.get(id)!.callFrame;
    const part = PARTS.find(([, matches]) => matches(url, functionName))![0];
    parts.set(part, (parts.get(part) ?? 0) + micros);
    // Each stage once per sample, if a frame on the stack is in it.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frameUrl = byId.get(at)!.callFrame.url;
      for (const [stage, pattern] of STAGES) if (!seen.has(stage) && pattern.test(frameUrl)) seen.add(stage);
    }
    for (const stage of seen) stages.set(stage, (stages.get(stage) ?? 0) + micros);
  }
  const idle = parts.get('idle') ?? 0;
  const busy = total - idle;
  const percent = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)}%)`);
  console.log('  busy time by part (self time):');
  for (const [part, micros] of [...parts].filter(([part]) => part !== 'idle').sort((a, b) => b[1] - a[1])) console.log(`    ${percent(micros)}  ${part}`);
  console.log('  inside each stage (inclusive; stages overlap):');
  for (const [stage] of STAGES) console.log(`    ${percent(stages.get(stage) ?? 0)}  ${stage}`);
  const top = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName !== '(idle)').map(([id, micros]) => ({ frame: byId.get(id)!.callFrame, micros })).sort((a, b) => b.micros - a.micros).slice(0, 25);
  console.log('  the 25 frames with the most self time:');
  for (const { frame, micros } of top) console.log(`    ${percent(micros)}  ${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}`);
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: tsx bench/profile.ts DIR (the .cpuprofile files of a run with BENCH_CPU_PROF=DIR)');
  process.exit(1);
}
const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
if (!files.length) {
  console.error(`no .cpuprofile files in ${dir}`);
  process.exit(1);
}
for (const name of files.sort()) analyse(join(dir, name));
