export * from './types.js';
export { MemoryReadStore } from './memory.js';
export { MongoReadStore } from './mongo.js';
export { openReadStore } from './open.js';
