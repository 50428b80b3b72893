import { subjectFamily, type Bus } from '@comanda/bus';
import { WrongExpectedRevision, type CommandObserver, type EventStore } from '@comanda/event-store';
import { aggregateOf, type Metrics } from './metrics.js';

/** The event store with appends counted (and the log's head watched); everything else passes through. */
export function instrumentStore<S extends EventStore>(store: S, metrics: Metrics): S {
  metrics.watchHead(() => store.headPosition());
  const append: EventStore['append'] = async (stream, events, expected) => {
    try {
      const result = await store.append(stream, events, expected);
      metrics.appends.inc({ outcome: 'ok' });
      metrics.appendedEvents.inc(events.length);
      return result;
    } catch (error) {
      metrics.appends.inc({ outcome: error instanceof WrongExpectedRevision ? 'conflict' : 'error' });
      throw error;
    }
  };
  return new Proxy(store, {
    get: (target, key, receiver) => (key === 'append' ? append : bind(target, Reflect.get(target, key, receiver))),
  });
}

/** The bus with publishes counted by subject family, failures apart. */
export function instrumentBus<B extends Bus>(bus: B, metrics: Metrics): B {
  const publish: Bus['publish'] = async (subject, payload, dedupId) => {
    const family = familyOf(subject);
    try {
      await bus.publish(subject, payload, dedupId);
      metrics.busPublished.inc({ family });
    } catch (error) {
      metrics.busPublishFailures.inc({ family });
      throw error;
    }
  };
  return new Proxy(bus, {
    get: (target, key, receiver) => (key === 'publish' ? publish : bind(target, Reflect.get(target, key, receiver))),
  });
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

const bind = (target: object, value: unknown) => (typeof value === 'function' ? value.bind(target) : value);
