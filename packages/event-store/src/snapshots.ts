import type { Decider } from '@comanda/domain';
import type { EventStore, Position } from './types.js';

/** Every this many events a stream whose decider opts in gets a new snapshot. */
export const SNAPSHOT_EVERY = 1000;

export interface Replay {
  fingerprint: string;
  events: Array<{ type: string; data: unknown }>;
  revision: number;
  position: Position;
}

export interface Folded<S> {
  revision: number;
  state: S;
  keys: Map<string, Replay>;
  /** Revision of the newest snapshot stored for this stream (-1: none). */
  snapshotAt: number;
}

const schemaOf = (decider: Decider<unknown, unknown, unknown>) => (decider.snapshot ? `${decider.snapshot.name}@${decider.snapshot.version}` : null);

/**
 * Where folding a stream starts: its snapshot, when the store keeps one written by this decider's
 * current schema; otherwise the beginning. Keys travel with the state, so an Idempotency-Key recorded
 * before the snapshot is still recognised after a restart.
 */
export async function startingPoint<S>(store: EventStore, decider: Decider<unknown, unknown, S>, stream: string): Promise<Folded<S>> {
  const schema = schemaOf(decider as Decider<unknown, unknown, unknown>);
  const stored = schema && store.readSnapshot ? await store.readSnapshot(stream) : null;
  if (!stored || stored.schema !== schema) return { revision: -1, state: decider.initialState(), keys: new Map(), snapshotAt: -1 };
  const body = JSON.parse(stored.body) as { state: S; keys: Array<[string, Omit<Replay, 'position'> & { position: string }]> };
  const keys = new Map(body.keys.map(([key, r]) => [key, { ...r, position: BigInt(r.position) }]));
  return { revision: stored.revision, state: body.state, keys, snapshotAt: stored.revision };
}

/** Stores a snapshot when the stream has grown SNAPSHOT_EVERY events past the last one. Best effort. */
export async function snapshotIfDue<S>(store: EventStore, decider: Decider<unknown, unknown, S>, stream: string, folded: Folded<S>): Promise<void> {
  const schema = schemaOf(decider as Decider<unknown, unknown, unknown>);
  if (!schema || !store.writeSnapshot || folded.revision - folded.snapshotAt < SNAPSHOT_EVERY) return;
  const keys = [...folded.keys].map(([key, r]) => [key, { ...r, position: r.position.toString() }]);
  await store.writeSnapshot(stream, { revision: folded.revision, schema, body: JSON.stringify({ state: folded.state, keys }) });
  folded.snapshotAt = folded.revision;
}
