// The crowd benchmark's writers (started by bench/crowd-writers.ts): edits through the note
// edit form and chat messages over WebSockets, each at a steady rate (open loop: sent when due
// whether or not earlier ones are answered, each timed from its send). The edits go through
// node:http, which writes a request to its kept-alive socket in the turn it is sent: undici's
// fetch took 2.7 ms at the median, 27 ms at the 99th percentile, from the call to the socket's
// write in this process, on the two cores the server shares, and its answer as long again, all
// of which the edits' latency counted as the server's.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { FromWriters, ToWriters, WriteRound, WritersPlan } from './crowd-writers.js';

const REQUEST_TIMEOUT_MS = 10_000;
/** How long after its last send a round waits for the echoes of its chat messages. */
const CHAT_WAIT_MS = 5_000;
const MAX_PROBLEMS = 5;

const reply = (message: FromWriters) => process.send!(message);

interface Chatter {
  socket: WebSocket;
  /** Messages this member sent and has not yet seen come back: content -> send time. */
  pending: Map<string, number>;
}

let plan: WritersPlan;
const chatters: Chatter[] = [];
let round: WriteRound | undefined;
let roundNumber = 0;

function note(problems: string[], problem: string): void {
  if (problems.length < MAX_PROBLEMS) problems.push(problem);
}

function connect(cookie: string, groupId: number): Promise<Chatter> {
  const origin = plan.url;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws/groups/${groupId}/chat/`, { headers: { cookie }, origin, handshakeTimeout: REQUEST_TIMEOUT_MS, perMessageDeflate: false });
    const chatter: Chatter = { socket, pending: new Map() };
    socket.once('open', () => resolve(chatter));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`chat handshake refused: ${response.statusCode}`)));
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; content?: string; error?: string };
      if (frame.type === 'error') note(round?.chat.problems ?? [], `chat error frame: ${frame.error}`);
      if (frame.type !== 'message' || frame.content === undefined) return;
      const sentAt = chatter.pending.get(frame.content);
      if (sentAt === undefined || !round) return;
      chatter.pending.delete(frame.content);
      round.chat.confirmed++;
      round.chat.latencies.push(performance.now() - sentAt);
    });
    socket.on('close', (code) => note(round?.chat.problems ?? [], `chat socket closed (${code})`));
  });
}

/** One edit through the form, as the browser submits it: every field as it was, the content changed. */
async function edit(writerIndex: number, k: number, current: WriteRound): Promise<void> {
  const writer = plan.writers[writerIndex]!;
  const target = writer.notes[Math.floor(k / plan.writers.length) % writer.notes.length]!;
  const form = new URLSearchParams({
    csrfmiddlewaretoken: plan.csrf,
    title: target.title,
    content: `${target.content}\n\nEdited in round ${roundNumber}, edit ${k}.`,
    notebook: '',
    group: target.groupId === null ? '' : String(target.groupId),
    priority: String(target.priority),
  });
  for (const tagId of target.tagIds) form.append('tags', String(tagId));
  const body = form.toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), cookie: writer.cookie, origin: plan.url };
  const at = performance.now();
  try {
    const { status, location } = await post(`${plan.url}/notes/${target.id}/edit/`, headers, body);
    current.edits.latencies.push(performance.now() - at);
    current.edits.statuses[status] = (current.edits.statuses[status] ?? 0) + 1;
    // Saved means a redirect to the list; a redirect to the login page is a failure too.
    if (status !== 302 || location !== `/notes/${target.id}/`) note(current.edits.problems, `edit of note ${target.id}: ${status} to ${location}`);
  } catch (error) {
    note(current.edits.problems, `edit of note ${target.id}: ${(error as Error).message}`);
  }
}

const agent = new Agent({ keepAlive: true });

/** A POST on a kept-alive connection; resolves once the whole answer is read. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', agent, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }, (response) => {
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location }));
      response.resume();
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function run(seconds: number): Promise<WriteRound> {
  roundNumber++;
  const current: WriteRound = { seconds, edits: { sent: 0, latencies: [], statuses: {}, problems: [] }, chat: { sent: 0, confirmed: 0, latencies: [], problems: [] } };
  round = current;
  const edits: Promise<void>[] = [];
  const totalEdits = Math.round(seconds * plan.editsPerSecond);
  const totalChat = Math.round(seconds * plan.chatPerSecond);
  const started = performance.now();
  const due = (count: number, rate: number) => (rate > 0 ? started + (count * 1000) / rate : Infinity);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Catch up on the schedule rather than drift: timers fire late under load.
      while (current.edits.sent < totalEdits && due(current.edits.sent, plan.editsPerSecond) <= now) {
        const k = current.edits.sent++;
        edits.push(edit(k % plan.writers.length, k, current));
      }
      while (current.chat.sent < totalChat && due(current.chat.sent, plan.chatPerSecond) <= now) {
        const k = current.chat.sent++;
        const chatter = chatters[k % chatters.length]!;
        const content = `crowd round ${roundNumber} message ${k}`;
        chatter.pending.set(content, performance.now());
        chatter.socket.send(JSON.stringify({ content }));
      }
      if (current.edits.sent === totalEdits && current.chat.sent === totalChat) return resolve();
      const next = Math.min(due(current.edits.sent, plan.editsPerSecond), due(current.chat.sent, plan.chatPerSecond));
      setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  });
  await Promise.all(edits);
  const waitUntil = performance.now() + CHAT_WAIT_MS;
  while (current.chat.confirmed < current.chat.sent && performance.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const chatter of chatters) chatter.pending.clear();
  round = undefined;
  return current;
}

process.on('message', (message: ToWriters) => {
  const work =
    message.type === 'setup'
      ? (async () => {
          plan = message.plan;
          for (const { cookie, groupId } of plan.chatters) chatters.push(await connect(cookie, groupId));
          reply({ type: 'ready' });
        })()
      : run(message.seconds).then((result) => reply({ type: 'done', round: result }));
  work.catch((error: Error) => reply({ type: 'failed', error: error.message }));
});
// Whatever happens to the benchmark, this process does not outlive it.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => {
  for (const chatter of chatters) chatter.socket.terminate();
  agent.destroy();
  process.exit(0);
});
