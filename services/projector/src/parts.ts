import { PRINTERS, PRINT_JOBS, type PrintJobView, type PrinterView, type Projection, allProjections, stationScreenGone } from '@comanda/read-models';
import { type SendToPrinter, Spooler, sendOverTcp } from '@comanda/printing';
import { type LocalProgress, type Part, REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import { kitchenPublications } from './kitchen-publications.js';
import { kitchenReactions } from './process-managers/kitchen.js';
import { tableOccupancy } from './process-managers/table-occupancy.js';
import { closePaidOrders } from './process-managers/close-paid-orders.js';
import { kitchenPaper } from './process-managers/kitchen-paper.js';
import { Projector } from './projector.js';
import { type Reaction, type ReactionProgress, Reactor } from './reactor.js';
import { recentOnFirstRun } from './recent-history.js';
import { Relay } from './relay.js';
import type { CommandHandler, EventStore } from '@comanda/event-store';
import { currentSettings } from '@comanda/workflows';
import type { ReadStore } from '@comanda/read-store';
import type { Config } from '@comanda/config';

/**
 * The read models: every projection over the log. `start` resolves once they hold every event that
 * was in the log at start (the API listens only after), and the process's read-your-writes waits on
 * it: it reports how far it has come to the process (`rt.progress`, as `projector`).
 */
export const projections = (list: Projection[] = allProjections): Part => ({
  name: 'projections',
  async start(rt) {
    const onProgress = (position: bigint) => rt.progress.report('projector', position);
    const projector = new Projector({ store: rt.store, readStore: rt.readStore, projections: list, logger: rt.logger, onProgress });
    rt.follow('projector', { get state() { return projector.state; }, position: () => projector.position() });
    await projector.start();
    const caughtUp = projector.position();
    if (caughtUp !== null) onProgress(caughtUp);
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

/** The process managers Comanda runs: table occupancy, kitchen paper, the kitchen's (auto-bump following the settings), closing paid orders (when configured). */
export const allReactions = (
  commands: CommandHandler, config?: Pick<Config, 'kitchenAutoBumpMinutes' | 'closePaidOrders' | 'timezone' | 'kitchenPaperFallbackSeconds'>, readStore?: ReadStore,
): Reaction[] => [
  tableOccupancy(commands),
  kitchenPaper(commands, {
    timezone: config?.timezone ?? 'UTC',
    // Without the screens' presence (a reactor given no read store) a screen-mode station never falls back to paper.
    screenGone: async (stationId) => (readStore ? stationScreenGone(readStore, stationId, Date.now(), (config?.kitchenPaperFallbackSeconds ?? 60) * 1000) : false),
  }),
  ...kitchenReactions(commands, undefined, config?.kitchenAutoBumpMinutes ?? 0),
  ...(config?.closePaidOrders ? [closePaidOrders(commands)] : []),
];

/** The process managers, issuing commands through the process's command handler. */
export const reactions = (choose: (commands: CommandHandler, config: Config, readStore: ReadStore) => Reaction[] = allReactions): Part => ({
  name: 'reactions',
  async start(rt) {
    // On the embedded log, a reactor with no checkpoint (a restored data dir) reacts to the last
    // 10,000 events, not to all history (recent-history.ts).
    const checkpoint = rt.config.eventStoreUrl ? rt.checkpoint('reactor') : recentOnFirstRun(rt.checkpoint('reactor'), rt.store);
    // An API in this process waits for a write's direct reactions here (rt.progress); API replicas
    // in other processes through the shared read store.
    const shared = rt.config.readStoreUrl || rt.config.mongoUrl ? rt.readStore : undefined;
    const progress = reactionProgress(rt.store, shared, rt.progress);
    // Auto-bump starts from the minutes in force (the settings stream over the environment's default) and follows later changes in the log.
    const { settings } = await currentSettings(rt.commands, rt.config);
    const config = { ...rt.config, kitchenAutoBumpMinutes: settings.kitchenAutoBumpMinutes };
    const part = new Reactor(rt.store, checkpoint, choose(rt.commands, config, rt.readStore), rt.logger, 'reactor', progress);
    await part.start();
    // Every event up to its checkpoint has had its reactions: a write made before (none on a new log) waits for nothing here.
    rt.progress.report(REACTIONS_THROUGH, part.position ?? -1n);
    rt.follow('processManagers', part);
    return { stop: () => part.stop() };
  },
});

/**
 * The reactor's progress: first the log's head once the reactions are appended (it covers every event
 * they wrote), then how far they are done — to this process (`rt.progress`, an API beside it) and to
 * the shared read store (API replicas elsewhere). A waiter that sees `through` reach its write finds
 * `appended` covering its reactions. The head is read once per batch for both: the distributed shape
 * read it twice (one `max(position)` statement per reactor batch saved, counted in reactor.test.ts).
 */
export const reactionProgress = (store: EventStore, readStore?: ReadStore, local?: LocalProgress): ReactionProgress => ({
  async report(through) {
    const head = (await store.headPosition()) ?? through;
    const appended = head > through ? head : through;
    local?.report(REACTIONS_APPENDED, appended);
    local?.report(REACTIONS_THROUGH, through);
    if (!readStore) return;
    // `appended` first, or in the same commit: a replica that sees `through` then finds it current.
    if (readStore.setCheckpoints) {
      await readStore.setCheckpoints([[REACTIONS_APPENDED, appended], [REACTIONS_THROUGH, through]]);
    } else {
      await readStore.setCheckpoint(REACTIONS_APPENDED, appended);
      await readStore.setCheckpoint(REACTIONS_THROUGH, through);
    }
  },
});

/**
 * The print spooler (issue 61): prints the queue the reactions and the API fill, one printer at a time
 * in order, retrying a printer that is down with backoff up to COMANDA_PRINT_RETRY_MAX_SECONDS. Runs
 * where the reactions run (the standalone, the leading projector), so one process sends each job.
 */
export const printing = (send: SendToPrinter = sendOverTcp()): Part => ({
  name: 'printing',
  async start(rt) {
    const spooler = new Spooler({
      commands: rt.commands, jobs: rt.readStore.collection<PrintJobView>(PRINT_JOBS), printers: rt.readStore.collection<PrinterView>(PRINTERS),
      send, warn: (details, message) => rt.logger.warn(details, message), retryMaxMs: rt.config.printRetryMaxSeconds * 1000,
    });
    spooler.start();
    return { stop: () => spooler.stop() };
  },
});
