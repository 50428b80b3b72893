import { preconditionFailed } from './errors.js';

/**
 * If-Match for one entity inside a singleton stream: the client pins the entity's version (its ETag),
 * not the stream's revision, so edits to other dishes or tables never make its request stale.
 */
export function unchangedSince(version: number, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && ifMatch !== version) throw preconditionFailed();
}

/**
 * The version (ETag) of an entity after one event touches it: 1 when the event creates it, one more on
 * every other. The deciders' `evolve` and the read models both count with this function, so the
 * version a GET serves is the one If-Match is checked against.
 */
export const versionAfter = (current: { version: number } | null | undefined): number => (current ? current.version + 1 : 1);
