export { createRuntime, lightningNode, type Follower, type LightningNode, type Part, type Runtime, type RunningPart, type RunningRuntime, type RuntimeOptions } from './runtime.js';
export { SubscriptionRunner, type BatchScope, type RunnerState, type SubscriptionOptions } from './subscription-runner.js';
export { CoalescedCheckpoint, FileCheckpoint, REACTIONS_APPENDED, REACTIONS_THROUGH, coalescedReadStoreCheckpoint, readStoreCheckpoint, type CheckpointStore } from './checkpoints.js';
export { DueQueue } from './due-queue.js';
export { checkHealth, healthRoutes, type HealthCheck, type HealthReport } from './health.js';
export { type LogFormat, SECRET_FIELDS, logFormat, processLogDestination, redactDeep, secretSafeLogging } from './logging.js';
export { LocalProgress } from './progress.js';
