import type { EventStore } from '@comanda/event-store';
import type { CheckpointStore } from './checkpoint-file.js';

/**
 * A checkpoint that, when it has never been written (a data dir restored from a backup, which does
 * not carry it), begins `recentEvents` before the log's head instead of at its start. For process
 * managers: a reaction is owed only where a crash cut a use case between its two appends, seconds
 * before the head; everything older was reacted to by the process that wrote it. Without this, the
 * first start after restoring a year of history would fold every order again (O(history)).
 * Only for logs whose positions are contiguous integers (SQLite, memory; not PostgreSQL, whose
 * positions pack transaction ids), so that `head - n` is n events back.
 */
export function recentOnFirstRun(checkpoint: CheckpointStore, store: Pick<EventStore, 'headPosition'>, recentEvents = 10_000): CheckpointStore {
  return {
    get: async () => {
      const at = await checkpoint.get();
      if (at !== null) return at;
      const head = await store.headPosition();
      return head !== null && head > BigInt(recentEvents) ? head - BigInt(recentEvents) : null;
    },
    set: (position) => checkpoint.set(position),
    flush: () => checkpoint.flush(),
  };
}
