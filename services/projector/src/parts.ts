import { type Projection, allProjections } from '@comanda/read-models';
import { type Part, REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import { kitchenPublications } from './kitchen-publications.js';
import { kitchenReactions } from './process-managers/kitchen.js';
import { tableOccupancy } from './process-managers/table-occupancy.js';
import { Projector } from './projector.js';
import { type Reaction, type ReactionProgress, Reactor } from './reactor.js';
import { recentOnFirstRun } from './recent-history.js';
import { Relay } from './relay.js';
import type { CommandHandler, EventStore } from '@comanda/event-store';
import type { ReadStore } from '@comanda/read-store';
import type { Config } from '@comanda/config';

/**
 * The read models: every projection over the log. `start` resolves once they hold every event that
 * was in the log at start (the API listens only after), and the process's read-your-writes waits on it.
 */
export const projections = (list: Projection[] = allProjections): Part => ({
  name: 'projections',
  async start(rt) {
    const projector = new Projector({ store: rt.store, readStore: rt.readStore, projections: list, logger: rt.logger });
    rt.follow('projector', { get state() { return projector.state; }, position: () => projector.position() });
    await projector.start();
    rt.readModels = projector;
    return { stop: () => projector.stop() };
  },
});

/** Every public domain event to the bus (`pos.<aggregate>.<EventType>`); a first run starts at the head. */
export const relay = (): Part => ({
  name: 'relay',
  async start(rt) {
    const part = new Relay(rt.store, rt.bus, rt.checkpoint('relay'), rt.logger, 'head');
    await part.start();
    // Degraded while the bus is away: shown on /health, and the projector stays ready meanwhile.
    rt.follow('relay', part, { optional: true });
    return { stop: () => part.stop() };
  },
});

/** Kitchen ticket events for screens (`pos.kitchen.<station>.<EventType>`), from the start of the log on a first run. */
export const kitchenRelay = (): Part => ({
  name: 'kitchen relay',
  async start(rt) {
    const part = new Relay(rt.store, rt.bus, rt.checkpoint('kitchen-relay'), rt.logger, 'start', kitchenPublications(rt.store), 'kitchen relay');
    await part.start();
    rt.follow('kitchenRelay', part, { optional: true });
    return { stop: () => part.stop() };
  },
});

/** The process managers Comanda runs: table occupancy and the kitchen's (auto-bump as configured). */
export const allReactions = (commands: CommandHandler, config?: Pick<Config, 'kitchenAutoBumpMinutes'>): Reaction[] =>
  [tableOccupancy(commands), ...kitchenReactions(commands, undefined, config?.kitchenAutoBumpMinutes ?? 0)];

/** The process managers, issuing commands through the process's command handler. */
export const reactions = (choose: (commands: CommandHandler, config: Config) => Reaction[] = allReactions): Part => ({
  name: 'reactions',
  async start(rt) {
    // On the embedded log, a reactor with no checkpoint (a restored data dir) reacts to the last
    // 10,000 events, not to all history (recent-history.ts).
    const checkpoint = rt.config.eventStoreUrl ? rt.checkpoint('reactor') : recentOnFirstRun(rt.checkpoint('reactor'), rt.store);
    // API replicas in other processes wait for a write's direct reactions through the shared read store.
    const progress = rt.config.readStoreUrl || rt.config.mongoUrl ? reactionProgress(rt.store, rt.readStore) : undefined;
    const part = new Reactor(rt.store, checkpoint, choose(rt.commands, rt.config), rt.logger, 'reactor', progress);
    await part.start();
    rt.follow('processManagers', part);
    return { stop: () => part.stop() };
  },
});

/**
 * The reactor's progress in the shared read store: first the log's head once the reactions are
 * appended (it covers every event they wrote), then how far they are done. A replica that reads
 * `through` ≥ its write and then `appended` knows a position the read models must reach to show them.
 */
export const reactionProgress = (store: EventStore, readStore: ReadStore): ReactionProgress => ({
  async report(through) {
    const head = (await store.headPosition()) ?? through;
    const appended = head > through ? head : through;
    // `appended` first, or in the same commit: a replica that sees `through` then finds it current.
    if (readStore.setCheckpoints) {
      await readStore.setCheckpoints([[REACTIONS_APPENDED, appended], [REACTIONS_THROUGH, through]]);
    } else {
      await readStore.setCheckpoint(REACTIONS_APPENDED, appended);
      await readStore.setCheckpoint(REACTIONS_THROUGH, through);
    }
  },
});
