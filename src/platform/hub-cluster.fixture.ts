import Fastify from 'fastify';
import { Hub, type HubEvent } from './hub.js';
import { ClusterTransport } from './hub-cluster.js';

// A cluster worker for hub-cluster.test.ts: reports every event its hub delivers, publishes on request.
const hub = new Hub(new ClusterTransport(), Fastify().log);
await hub.start();
hub.subscribe((event) => process.send!({ delivered: event }));
process.on('message', (message: { publish?: HubEvent }) => {
  if (message.publish) hub.publish(message.publish);
});
process.send!({ ready: true });
