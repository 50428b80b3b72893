export { buildApp, REDACT, type BuildOptions } from './app.js';
export type { AppDeps, ConsistencyGate, HealthCheck } from './deps.js';
export { GREETING } from './routes/general.js';
export { PollingCheckpointGate } from './polling-gate.js';
