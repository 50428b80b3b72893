import { join } from 'node:path';
import type { RecordedEvent } from '@comanda/event-store';
import { SqliteEventStore } from '@comanda/event-store';
import { availableParallelism } from 'node:os';
import { ALL_REPORTS, ReportFold, copyInto, generateDemo, readLog, replayInParallel, replayLog } from '@comanda/analytics';
import type { BenchResult } from './webhooks.js';

const TZ = 'America/Mexico_City';
const TIME_FIELDS = ['at', 'placedAt', 'takenAt', 'firedAt', 'issuedAt', 'receivedAt', 'openedAt'] as const;
const MONTH = 31 * 86_400_000;

/** A copy of a generated month, `k` months later, on streams of its own (`<stream>-r<k>`). */
function later(e: RecordedEvent, k: number): RecordedEvent {
  if (k === 0) return e;
  const data = { ...(e.data as Record<string, unknown>) };
  for (const f of TIME_FIELDS) if (typeof data[f] === 'number') data[f] = (data[f] as number) + k * MONTH;
  const occurredAt = (e.metadata.occurredAt as number) + k * MONTH;
  const stream = e.stream === 'menu' || e.stream === 'floor' || e.stream === 'shifts' ? e.stream : `${e.stream}-r${k}`;
  return { ...e, id: crypto.randomUUID(), stream, data, metadata: { ...e.metadata, occurredAt } };
}

/**
 * Issue 14: replay of ≥ 1,000,000 events (a generated month of a busy restaurant, written through the
 * deciders, repeated month after month) from the SQLite log into every report, beside the raw read
 * rate of the same log (the same subscription, doing nothing with the events) in the same run.
 * Each is run twice, alternating, and the better of each is kept.
 */
export async function analyticsReplay(dir: string, target = 1_000_000): Promise<BenchResult> {
  const file = join(dir, 'analytics.db');
  const writer = new SqliteEventStore({ filename: file, recentEvents: 0 });
  let month: RecordedEvent[] = [];
  await generateDemo({ seed: 14, start: '2026-01-01', days: 31, timeZone: TZ, onDay: (log) => { month = month.concat(log.drain()); } });
  // The menu and the shift are set up once; every other event is repeated month after month, the
  // floor's (a singleton stream) continuing its revisions.
  const once = (e: RecordedEvent) => e.stream === 'menu' || e.stream === 'shifts';
  const setup = month.filter(once);
  const service = month.filter((e) => !once(e));
  const revisions = new Map<string, number>();
  const continued = (e: RecordedEvent): RecordedEvent => {
    if (e.stream !== 'menu' && e.stream !== 'floor' && e.stream !== 'shifts') return e;
    const revision = (revisions.get(e.stream) ?? -1) + 1;
    revisions.set(e.stream, revision);
    return { ...e, revision };
  };
  await copyInto(writer, setup.map(continued));
  let written = setup.length;
  for (let k = 0; written < target; k++) {
    const copy = service.map((e) => continued(later(e, k)));
    await copyInto(writer, copy);
    written += copy.length;
  }
  await writer.close();

  let raw = 0;
  let replay = 0;
  let parallel = 0;
  let events = 0;
  for (let round = 0; round < 2; round++) {
    const a = new SqliteEventStore({ filename: file, recentEvents: 0 });
    raw = Math.max(raw, (await readLog(a)).eventsPerSecond);
    await a.close();
    const b = new SqliteEventStore({ filename: file, recentEvents: 0 });
    const r = await replayLog(b, new ReportFold(ALL_REPORTS, TZ));
    replay = Math.max(replay, r.eventsPerSecond);
    events = r.events;
    await b.close();
    // What `npm run analytics` does on the SQLite log: the reports split over the machine's cores.
    parallel = Math.max(parallel, (await replayInParallel(file, new ReportFold(ALL_REPORTS, TZ))).eventsPerSecond);
  }
  const ratio = parallel / raw;
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  return {
    measure: `analytics: replay of ${(events / 1e6).toFixed(2)}M events into all ${ALL_REPORTS.length} reports (npm run analytics: the reports split over ${Math.min(availableParallelism(), 4)} threads) vs the raw read of the same log`,
    value: `${f(parallel)} events/s, ${(ratio * 100).toFixed(0)} % of the raw read rate (${f(raw)} events/s on one thread); on one thread the replay runs at ${f(replay)} events/s`,
    target: '≥ 200,000 events/s and ≥ 50 % of the raw read',
    ok: parallel >= 200_000 && ratio >= 0.5,
  };
}
