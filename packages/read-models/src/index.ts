export * from './projection.js';
export { allProjections } from './all.js';
