import { versionAfter } from '@comanda/domain';
import type { Tracked } from './projection.js';

/**
 * The next state of a document that carries a `version` (its ETag): every event that touches the
 * entity moves it on by one, exactly as the decider counts, so If-Match compares like with like.
 * An event for a document this read model never saw changes nothing.
 */
export function bump<T extends Tracked & { version: number }>(current: T | null, changes: Partial<T> = {}): T | undefined {
  if (!current) return undefined;
  return { ...current, ...changes, version: versionAfter(current) };
}
