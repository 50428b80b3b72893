import { type Recorded, type RecordedEvent, isOneOf } from '@comanda/event-store';
import { type Collection, type Doc, type IndexSpec, type ReadStore, positionKey } from '@comanda/read-store';

/**
 * Turns events into read-model documents. Delivery is at least once, so `apply` must be idempotent:
 * `updateDocument` makes each document remember the last event applied to it and skips older ones.
 */
export interface Projection {
  name: string;
  /** Event types it reads; the projector does not call it for others. */
  handles: readonly string[];
  /**
   * Every collection it writes, and the fields they are queried by (indexes). A rebuild empties these.
   */
  collections?: Record<string, IndexSpec[]>;
  /**
   * Bump it when the documents it writes change shape or meaning: read models kept across restarts
   * (SQLite, PostgreSQL, MongoDB) are then rebuilt from the start of the log at the next start.
   */
  version?: number;
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}

// The events' narrowing lives with the log's types (the reports and reactions use it too); still exported here.
export { isOneOf, type Recorded } from '@comanda/event-store';

/** A projection written against the union of the events it handles: `apply` is handed only those, typed. */
export interface ProjectionOf<E extends { type: string; data: unknown }> extends Omit<Projection, 'handles' | 'apply'> {
  handles: readonly E['type'][];
  apply(event: Recorded<E>, store: ReadStore): Promise<void>;
}

/** A projection typed by its events; the projector's events are narrowed by type before `apply` sees them. */
export function projectionOf<E extends { type: string; data: unknown }>(typed: ProjectionOf<E>): Projection {
  return {
    ...typed,
    async apply(event, store) {
      if (isOneOf<E>(event, typed.handles)) await typed.apply(event, store);
    },
  };
}

export type Tracked = Doc & { _position: string };

/**
 * Read-modify-write of one document, skipped when the document already reflects this event.
 * Returning null deletes the document; returning undefined leaves it unchanged.
 */
export async function updateDocument<T extends Tracked>(
  collection: Collection<T>,
  id: string,
  event: RecordedEvent,
  change: (current: T | null) => Omit<T, '_position'> | null | undefined,
): Promise<void> {
  const current = await collection.get(id);
  const at = positionKey(event.position);
  if (current && current._position >= at) return;
  const next = change(current);
  if (next === undefined) return;
  if (next === null) {
    if (current) await collection.delete(id);
    return;
  }
  await collection.upsert({ ...next, _id: id, _position: at } as T);
}
