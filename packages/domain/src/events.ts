/** An event as a decider emits it: a past-tense fact with a payload. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** Who and why: stored with every event beside its payload. */
export interface EventMetadata {
  occurredAt: number;
  userId?: string | null;
  correlationId?: string;
  causationId?: string;
  schemaVersion: number;
  /** Fingerprint of the request that produced the event, for Idempotency-Key replays. */
  idempotency?: { key: string; fingerprint: string };
  [extra: string]: unknown;
}
