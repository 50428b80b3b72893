export * from './types.js';
export { InProcessBus } from './in-process.js';
export { NatsBus } from './nats.js';
export { startNatsServer, natsServerAvailable, freePort, type NatsServerHandle } from './nats-server.js';
export { openBus } from './open.js';
