export * from './projection.js';
export { allProjections } from './all.js';
export * from './users.js';
