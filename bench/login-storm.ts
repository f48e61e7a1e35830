// The login storm's clients, in a process of their own: sharing the event loop of the process
// that times the page would add their own work to the page's measured latency.
const [url = '', csrf = '', password = '', seconds = '15', clients = '32'] = process.argv.slice(2);
const RAMP_MS = 3000;
const deadline = Date.now() + Number(seconds) * 1000;
/** Logins are counted from here to the deadline: the storm at full strength, not its ramp or drain. */
const countFrom = Date.now() + RAMP_MS;
let completed = 0;
let failures = 0;

/** Client `i` signs in as `storm<i>`: one username is checked at most 5 times at once (login throttling). */
async function client(i: number): Promise<void> {
  const body = new URLSearchParams({ csrfmiddlewaretoken: csrf, username: `storm${i}`, password }).toString();
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

await Promise.all(Array.from({ length: Number(clients) }, (_, i) => client(i)));
process.stdout.write(`${JSON.stringify({ rate: completed / ((deadline - countFrom) / 1000), failures })}\n`);
