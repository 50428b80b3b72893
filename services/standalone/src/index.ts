export { startComanda, type RunningComanda } from './compose.js';
