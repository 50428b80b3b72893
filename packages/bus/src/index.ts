export * from './types.js';
export { InProcessBus } from './in-process.js';
// NatsBus is at '@comanda/bus/nats': importing it loads the NATS client, which the standalone shape never needs.
export { startNatsServer, natsServerAvailable, freePort, type NatsServerHandle } from './nats-server.js';
export { openBus } from './open.js';
