import type { EventStore, Position } from '@comanda/event-store';
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
 * Replays the log from position 0 up to its head at the start into `fold` (events appended later are
 * left for the next run), calling `onProgress` after every page.
 */
export async function replayLog(store: EventStore, fold: ReportFold, onProgress?: (p: ReplayProgress) => void): Promise<ReplayOutcome> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  const head = await store.headPosition();
  if (head !== null) {
    let subscription: { close(): Promise<void> } | undefined;
    await new Promise<void>((resolve, reject) => {
      let done = false;
      subscription = store.subscribeToAll(null, {
        onEvents: (events) => {
          if (done) return;
          let page = events;
          if (page[page.length - 1]!.position > head) page = page.filter((e) => e.position <= head);
          fold.apply(page);
          const position = fold.position ?? head;
          onProgress?.({ events: fold.events, position, head, seconds: elapsed() });
          if (position >= head) {
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
  const seconds = elapsed();
  return { events: fold.events, seconds, eventsPerSecond: seconds > 0 ? Math.round(fold.events / seconds) : fold.events };
}

/** Reads the log from position 0 to its head doing nothing with the events: the raw read rate to compare with. */
export async function readLog(store: EventStore): Promise<ReplayOutcome> {
  const started = process.hrtime.bigint();
  const head = await store.headPosition();
  let events = 0;
  if (head !== null) {
    let subscription: { close(): Promise<void> } | undefined;
    await new Promise<void>((resolve, reject) => {
      let done = false;
      subscription = store.subscribeToAll(null, {
        onEvents: (page) => {
          if (done) return;
          events += page.length;
          if (page[page.length - 1]!.position >= head) {
            done = true;
            resolve();
          }
        },
        onError: reject,
      });
    });
    await subscription?.close();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events, seconds, eventsPerSecond: seconds > 0 ? Math.round(events / seconds) : events };
}
