export * from './projection.js';
export { allProjections } from './all.js';
export * from './users.js';
export * from './categories.js';
export * from './dishes.js';
export * from './spaces.js';
export * from './tables.js';
export * from './orders.js';
export * from './unmatched-payments.js';
