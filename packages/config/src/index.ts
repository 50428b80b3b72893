export * from './config.js';
export * from './secrets.js';
