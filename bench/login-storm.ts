// The login storm's clients, in a process of their own: sharing the event loop of the process
// that times the page would add their own work to the page's measured latency.
const [url = '', csrf = '', password = '', seconds = '15'] = process.argv.slice(2);
const RAMP_MS = 3000;
const deadline = Date.now() + Number(seconds) * 1000;
const body = new URLSearchParams({ csrfmiddlewaretoken: csrf, username: 'bench', password }).toString();
/** Logins are counted from here to the deadline: the storm at full strength, not its ramp or drain. */
const countFrom = Date.now() + RAMP_MS;
let completed = 0;
let failures = 0;

async function client(): Promise<void> {
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, origin: url },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 302) failures++;
    else if (Date.now() >= countFrom && Date.now() < deadline) completed++;
  }
}

await Promise.all(Array.from({ length: 32 }, client));
process.stdout.write(`${JSON.stringify({ rate: completed / ((deadline - countFrom) / 1000), failures })}\n`);
