export * from './decider.js';
export * from './errors.js';
export * from './events.js';
export * from './ids.js';
export * from './money.js';
export * from './currencies.js';
