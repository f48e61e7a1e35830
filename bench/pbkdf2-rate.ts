// The machine's raw PBKDF2 rate: `concurrency` async crypto.pbkdf2 calls kept in flight for
// `seconds`, in a process of its own with the same thread pool the server has.
import { pbkdf2 } from 'node:crypto';

const [iterations = '1000000', concurrency = '32', seconds = '10'] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
/** Counted as the login storm counts logins: from 3 s in to the deadline, not the ramp or the drain. */
const countFrom = Date.now() + 3000;
let completed = 0;

function next(): Promise<void> {
  if (Date.now() >= deadline) return Promise.resolve();
  return new Promise((resolve) => {
    pbkdf2('bench-password', 'bench-salt-0123456789', Number(iterations), 32, 'sha256', () => {
      if (Date.now() >= countFrom && Date.now() < deadline) completed++;
      resolve(next());
    });
  });
}

await Promise.all(Array.from({ length: Number(concurrency) }, () => next()));
process.stdout.write(`${JSON.stringify({ rate: completed / ((deadline - countFrom) / 1000), completed })}\n`);
