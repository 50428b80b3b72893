import type { EventStore, Position, RecordedEvent } from '@comanda/event-store';
import type { ReportFold } from './fold.js';

export interface ReplayProgress {
  events: number;
  position: Position;
  head: Position;
  seconds: number;
}

export interface ReplayOutcome {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * Reads the log from position 0 up to its head at the start (events appended later are left for the
 * next run), a page at a time, to `onPage`; resolves with the seconds it took.
 */
async function readToHead(store: EventStore, onPage: (page: readonly RecordedEvent[], head: Position) => void): Promise<number> {
  const started = process.hrtime.bigint();
  const head = await store.headPosition();
  if (head !== null) {
    let subscription: { close(): Promise<void> } | undefined;
    await new Promise<void>((resolve, reject) => {
      let done = false;
      subscription = store.subscribeToAll(null, {
        onEvents: (events) => {
          if (done) return;
          const last = events[events.length - 1]!.position;
          onPage(last > head ? events.filter((e) => e.position <= head) : events, head);
          if (last >= head) {
            done = true;
            resolve();
          }
        },
        onError: reject,
      });
    });
    // Closed outside the handler: closing waits for the handler in progress to return.
    await subscription?.close();
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const outcome = (events: number, seconds: number): ReplayOutcome =>
  ({ events, seconds, eventsPerSecond: seconds > 0 ? Math.round(events / seconds) : events });

/** Replays the log from position 0 up to its head at the start into `fold`, calling `onProgress` after every page. */
export async function replayLog(store: EventStore, fold: ReportFold, onProgress?: (p: ReplayProgress) => void): Promise<ReplayOutcome> {
  const started = process.hrtime.bigint();
  const seconds = await readToHead(store, (page, head) => {
    fold.apply(page);
    onProgress?.({ events: fold.events, position: fold.position ?? head, head, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  });
  return outcome(fold.events, seconds);
}

/** Reads the log from position 0 to its head doing nothing with the events: the raw read rate to compare with. */
export async function readLog(store: EventStore): Promise<ReplayOutcome> {
  let events = 0;
  const seconds = await readToHead(store, (page) => {
    events += page.length;
  });
  return outcome(events, seconds);
}
