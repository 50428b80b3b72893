import { preconditionFailed } from './errors.js';

/**
 * If-Match for one entity inside a singleton stream: the client pins the entity's version (its ETag),
 * not the stream's revision, so edits to other dishes or tables never make its request stale.
 */
export function unchangedSince(version: number, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && ifMatch !== version) throw preconditionFailed();
}
