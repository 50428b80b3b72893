import { createHash } from 'node:crypto';
import type { EventStore, Position } from '@comanda/event-store';
import type { Projection } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { Logger } from 'pino';

/** The projections' names and versions, as a number a checkpoint can hold (52 bits of a SHA-256). */
export function projectionsFingerprint(projections: Projection[]): bigint {
  const text = projections.map((p) => `${p.name}@${p.version ?? 1}`).sort().join(',');
  return BigInt(`0x${createHash('sha256').update(text).digest('hex').slice(0, 13)}`);
}

/**
 * Where a projector resumes, after checking that the read models it finds belong to this log and to
 * these projections; otherwise they are emptied and rebuilt from the start of the log:
 * - a checkpoint beyond the log's head: the read models are newer than the log (an older backup of
 *   the log was restored beside them, or the files were swapped);
 * - a projection added, removed or whose `version` changed since they were written.
 * The order survives a crash at any point: the checkpoint goes back to 0 first (so a rebuild never
 * resumes midway over emptied collections), then the collections are emptied, then the fingerprint
 * is written. Only the projector's own collections and checkpoint are touched (relay and reactor
 * checkpoints kept in the same store, the login throttle, stay).
 */
export async function resumePosition(options: {
  store: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  name: string;
  logger: Logger;
}): Promise<Position | null> {
  const { store, readStore, projections, name, logger } = options;
  const fingerprintName = `${name}:projections`;
  const wanted = projectionsFingerprint(projections);
  const [checkpoint, head, stored] = await Promise.all([readStore.getCheckpoint(name), store.headPosition(), readStore.getCheckpoint(fingerprintName)]);
  let reason: string | null = null;
  if (checkpoint !== null && checkpoint > (head ?? 0n)) {
    reason = `their checkpoint (${checkpoint}) is ahead of the event log's head (${head ?? 0n}): they were built from a log this one is not (an older backup restored?)`;
  } else if (checkpoint !== null && checkpoint > 0n && stored !== wanted) {
    reason = 'the projections changed since they were built (a new projection or a new version)';
  }
  if (reason) {
    logger.warn({ projector: name, checkpoint: String(checkpoint), head: String(head) }, `Rebuilding the read models from the start of the log: ${reason}`);
    await readStore.setCheckpoint(name, 0n);
    const collections = new Set(projections.flatMap((p) => Object.keys(p.collections ?? {})));
    for (const collection of collections) await readStore.drop(collection);
  }
  if (stored !== wanted) await readStore.setCheckpoint(fingerprintName, wanted);
  // 0 is "nothing applied yet", written by a rebuild: positions start after it in every store.
  return reason || checkpoint === 0n ? null : checkpoint;
}
