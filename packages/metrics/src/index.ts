export { Metrics, aggregateOf, type CommandOutcome, type PositionSource } from './metrics.js';
export { commandObserver, instrumentBus, instrumentStore } from './instrument.js';
export type { RouteAnswers } from './answered-requests.js';
