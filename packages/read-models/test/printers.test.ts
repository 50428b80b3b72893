import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import {
  PRINTERS, PRINT_JOBS, type PrintJobView, type PrinterView, SCREEN_REFRESH_MS, markStationScreen, printJobsProjection, printersProjection, stationScreenGone,
} from '../src/index.js';

const P = '11111111-1111-4111-8111-111111111111';
const JOB = '22222222-2222-4222-8222-222222222222';
const GRILL = '33333333-3333-4333-8333-333333333333';
const at = (position: number, stream: string, type: string, data: unknown): RecordedEvent =>
  ({ id: `e${position}`, stream, revision: 0, position: BigInt(position), type, data, metadata: {}, recordedAt: 0 }) as RecordedEvent;
const setup = { name: 'Grill', host: '10.0.0.9', port: 9100, paperWidth: 80, codePage: 'cp858', stationId: GRILL, stationMode: 'paper', till: false };

t.test('printers: added, changed (version counted as the decider does), removed; a redelivery changes nothing', async (t) => {
  const store = new MemoryReadStore();
  const printers = store.collection<PrinterView>(PRINTERS);
  const added = at(1, 'printers', 'PrinterAdded', { printerId: P, ...setup });
  for (const e of [added, at(2, 'printers', 'PrinterChanged', { printerId: P, ...setup, port: 9101, stationMode: 'both' }), added]) await printersProjection.apply(e, store);
  t.match(await printers.get(P), { id: P, name: 'Grill', host: '10.0.0.9', port: 9101, paper_width: 80, code_page: 'cp858', station_id: GRILL, station_mode: 'both', till: false, version: 2 });
  await printersProjection.apply(at(3, 'printers', 'PrinterRemoved', { printerId: P }), store);
  t.equal(await printers.get(P), null);
});

t.test('print jobs: queued with the position that orders them, attempts and last error, printed', async (t) => {
  const store = new MemoryReadStore();
  const jobs = store.collection<PrintJobView>(PRINT_JOBS);
  await printJobsProjection.apply(at(7, `printjob-${JOB}`, 'PrintJobQueued', { jobId: JOB, printerId: P, kind: 'kitchen', title: 'T1 · Grill', data: 'AA==', queuedAt: 100 }), store);
  t.match(await jobs.get(JOB), { status: 'queued', seq: '7'.padStart(40, '0'), attempts: 0, last_error: null, printed_at: null });
  t.notOk('data' in (await jobs.get(JOB))!, 'the bytes stay in the job\'s stream');
  await printJobsProjection.apply(at(8, `printjob-${JOB}`, 'PrintJobFailed', { jobId: JOB, printerId: P, attempt: 1, error: 'ECONNREFUSED', at: 200 }), store);
  t.match(await jobs.get(JOB), { status: 'queued', attempts: 1, last_error: 'ECONNREFUSED' });
  await printJobsProjection.apply(at(9, `printjob-${JOB}`, 'PrintJobPrinted', { jobId: JOB, printerId: P, attempts: 2, at: 300 }), store);
  t.match(await jobs.get(JOB), { status: 'printed', attempts: 2, printed_at: 300, seq: '7'.padStart(40, '0') });
  const other = '44444444-4444-4444-8444-444444444444';
  await printJobsProjection.apply(at(10, `printjob-${other}`, 'PrintJobPrinted', { jobId: other, printerId: P, attempts: 1, at: 300 }), store);
  t.equal(await jobs.get(other), null, 'nothing made up for a job never seen queued');
});

t.test('a station\'s screen: there while a connection is open and recent; gone once the last left longer ago than the fallback', async (t) => {
  const store = new MemoryReadStore();
  const now = 1_000_000;
  t.equal(await stationScreenGone(store, GRILL, now, 60_000), true, 'never connected: gone');
  await markStationScreen(store, 'screen-1', GRILL, true, now - 10_000);
  t.equal(await stationScreenGone(store, GRILL, now, 5_000), false, 'connected');
  t.equal(await stationScreenGone(store, GRILL, now + 3 * SCREEN_REFRESH_MS + 10_000, 5_000), true, 'silent three refreshes long: its API died, gone');
  await markStationScreen(store, 'screen-1', GRILL, false, now - 10_000);
  t.equal(await stationScreenGone(store, GRILL, now, 60_000), false, 'left 10 s ago: within the fallback time');
  t.equal(await stationScreenGone(store, GRILL, now, 5_000), true, 'left longer ago than the fallback time');
  await markStationScreen(store, 'screen-2', GRILL, true, now);
  t.equal(await stationScreenGone(store, GRILL, now, 5_000), false, 'another screen came back');
});
