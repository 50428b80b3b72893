import type { RecordedEvent, ReplayedEvent } from './types.js';

/** A domain event as the log recorded it: its own type and data, with the log's position, stream and time. */
export type Recorded<E extends { type: string; data: unknown }> = RecordedEvent & E;

/** A domain event as a replay of the log hands it (the reports' folds): type, data, stream, position, metadata. */
export type Replayed<E extends { type: string; data: unknown }> = ReplayedEvent & E;

/**
 * Whether an event of the log is one of `types`, narrowing it to their union: the typed way from the
 * log's `{ type: string; data: unknown }` to a domain event (the projections', reports' and
 * reactions' way), where a cast would believe anything.
 */
export function isOneOf<E extends { type: string; data: unknown }>(event: RecordedEvent, types: readonly E['type'][]): event is Recorded<E>;
export function isOneOf<E extends { type: string; data: unknown }>(event: ReplayedEvent, types: readonly E['type'][]): event is Replayed<E>;
export function isOneOf(event: ReplayedEvent, types: readonly string[]): boolean {
  return types.some((type) => type === event.type);
}
