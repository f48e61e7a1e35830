import WebSocket from 'ws';
import { ChatClient } from '../ws.js';
import { SITE_HOST } from './processes.js';

/** A chat socket through one nginx, with the browser's session cookie and the site's own Origin. */
export function openChat(port: number, groupId: number, cookie: string): Promise<ChatClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/groups/${groupId}/chat/`, {
    headers: { host: SITE_HOST, cookie, 'x-forwarded-proto': 'https' },
    origin: `https://${SITE_HOST}`,
  });
  const client = new ChatClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`handshake refused with ${response.statusCode}`)));
    ws.once('error', reject);
  });
}
