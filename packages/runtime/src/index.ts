export { createRuntime, lightningNode, type Follower, type LightningNode, type Part, type Runtime, type RunningPart, type RunningRuntime, type RuntimeOptions } from './runtime.js';
export { SubscriptionRunner, type BatchScope, type RunnerState, type SubscriptionOptions } from './subscription-runner.js';
export { FileCheckpoint, readStoreCheckpoint, type CheckpointStore } from './checkpoints.js';
export { DueQueue } from './due-queue.js';
export { collectOnceStarted, collectWhenIdle, fullCollection, type IdleCollectorOptions, type StartCollectorOptions } from './idle-collector.js';
export { keepNextTickShape, keptNextTickEntry } from './next-tick-shape.js';
export { checkHealth, healthRoutes, type HealthCheck, type HealthReport } from './health.js';
export { type BatchedDestination, type EncodedLine, REDACT, SECRET_FIELDS, batchedDestination, processLogDestination, redactDeep, secretSafeLogging } from './logging.js';
export { bytesOf, putAscii, putBytes, putDigits, putInteger, putJsonString } from './line-bytes.js';
