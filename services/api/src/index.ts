export { buildApp, REDACT, type BuildOptions } from './app.js';
export type { AppDeps, ConsistencyGate, HealthCheck } from './deps.js';
export { GREETING } from './routes/general.js';
export { PollingCheckpointGate } from './polling-gate.js';
export { bootstrapFirstAdmin, firstAdminAnnouncer, type FirstAdminSettings, type GeneratedSecrets } from './auth/bootstrap.js';
export { hashSecret, verifySecret, PIN_HASH } from './auth/pin.js';
export { writeContext, newResourceId, ifMatch, setEtag } from './http/write-context.js';
export { sendJsonString, sendNoContent } from './http/replies.js';
export { IdParams, commonErrors } from './http/schemas.js';
