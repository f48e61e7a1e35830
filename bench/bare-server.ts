// The baseline: plain node:http serving fixed bytes from memory, in a process of its own
// (like the app), so that it does not share a core with the load generator.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, contentType = 'text/html; charset=utf-8'] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
