import { subjectFamily, type Bus } from '@comanda/bus';
import { WrongExpectedRevision, type CommandObserver, type EventStore } from '@comanda/event-store';
import { aggregateOf, type Metrics } from './metrics.js';

/**
 * Counts the store's appends (and watches the log's head). The instance's own `append` is wrapped in
 * place rather than proxied, so every other call (reads on the hot path) costs nothing extra and the
 * store keeps its class (the SQLite backup needs it).
 */
export function instrumentStore<S extends EventStore>(store: S, metrics: Metrics): S {
  metrics.watchHead(() => store.headPosition(), store.countAfter?.bind(store));
  const original = store.append.bind(store);
  store.append = async (stream, events, expected) => {
    try {
      const result = await original(stream, events, expected);
      metrics.appends.inc({ outcome: 'ok' });
      metrics.appendedEvents.inc(events.length);
      return result;
    } catch (error) {
      metrics.appends.inc({ outcome: error instanceof WrongExpectedRevision ? 'conflict' : 'error' });
      throw error;
    }
  };
  return store;
}

/** Counts the bus's publishes by subject family, failures apart (wrapped in place, as above). */
export function instrumentBus<B extends Bus>(bus: B, metrics: Metrics): B {
  const original = bus.publish.bind(bus);
  bus.publish = async (subject, payload, dedupId) => {
    const family = familyOf(subject);
    try {
      await original(subject, payload, dedupId);
      metrics.busPublished.inc({ family });
    } catch (error) {
      metrics.busPublishFailures.inc({ family });
      throw error;
    }
  };
  return bus;
}

/** For the CommandHandler: counts each command's outcome and each conflict it retried. */
export function commandObserver(metrics: Metrics): CommandObserver {
  return {
    outcome: (stream, outcome) => metrics.commands.inc({ aggregate: aggregateOf(stream), outcome }),
    conflict: (stream) => metrics.conflicts.inc({ aggregate: aggregateOf(stream) }),
  };
}

function familyOf(subject: string): string {
  try {
    return subjectFamily(subject);
  } catch {
    return 'invalid';
  }
}
