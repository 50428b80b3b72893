export * from './config.js';
export * from './secrets.js';
export type { ServiceChargeConfig } from './service-charge.js';
