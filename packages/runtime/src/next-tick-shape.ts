import { createHook } from 'node:async_hooks';

/** The queue entry kept alive (see `keepNextTickShape`); replaced by each later call. */
let kept: object | undefined;

const nothing = () => {};

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so that a full
 * collection never finds the entries' object shape unused.
 *
 * Why: every answer goes through `process.nextTick` four or five times (Node's streams and HTTP
 * server), and each call builds an entry with a literal that has computed keys (Node's
 * `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 remembers the shapes
 * such a literal goes through (its feedback) weakly. A full collection made while no entry is queued
 * (the start-up collection, the idle one, or V8's own when the process rests) frees those shapes, and
 * the next entry then finds its remembered shape gone, which V8 treats as a second shape: it marks the
 * literal megamorphic, and from then on every entry is built in V8's runtime. Measured on the 2-core VM:
 * `process.nextTick` went from ~26 ns to ~220 ns a call after the runtime's start-up collection (its
 * feedback read with `%DebugPrint`: MEGAMORPHIC), ~3 µs of a cached GET's ~34 µs of CPU. An entry
 * held here keeps the shapes alive, so the feedback stays monomorphic.
 *
 * The entry is taken from an async hook's `init` (the only place Node hands it out), enabled for that
 * one synchronous call and disabled at once. Called again before each collection the runtime makes,
 * it takes an entry of the shape current then.
 */
export function keepNextTickShape(): void {
  let entry: object | undefined;
  const hook = createHook({
    init(_id, type, _trigger, resource: object) {
      if (type === 'TickObject' && entry === undefined) entry = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(nothing);
  } finally {
    hook.disable();
  }
  if (entry !== undefined) kept = entry;
}

/** The entry being kept, if any (for tests). */
export const keptNextTickEntry = (): object | undefined => kept;
