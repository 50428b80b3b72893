import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '@comanda/config';
import { type EventStore, openEventStore } from '@comanda/event-store';
import { freshDatabase, postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { ALL_REPORTS, ReportFold, replayLog, runCli, toJson } from '../src/index.js';
import { TZ, restaurantNight } from './restaurant-day.js';

/** The hand-built night appended through a store, one append per event, as the service writes it. */
async function writeNight(store: EventStore, prefix = ''): Promise<void> {
  const revisions = new Map<string, number>();
  for (const e of restaurantNight()) {
    const stream = e.stream === 'menu' || e.stream === 'floor' ? `${e.stream}${prefix}` : e.stream.replace('-', `-${prefix}`);
    const expected = revisions.has(stream) ? revisions.get(stream)! : 'no_stream';
    await store.append(stream, [{ id: crypto.randomUUID(), type: e.type, data: e.data, metadata: e.metadata }], expected);
    revisions.set(stream, e.revision);
  }
}

/** `npm run analytics -- --eventstore URL --format json`, from an empty data dir (no SQLite log to fall back on). */
async function cliByUrl(url: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-analytics-url-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let text = '';
  const out = new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } });
  await runCli(['--eventstore', url, '--format', 'json'], loadConfig({ COMANDA_DATA_DIR: dir, COMANDA_TIMEZONE: TZ, COMANDA_LOG_LEVEL: 'silent' }), out);
  return text;
}

/** What a fold of the store's whole log gives, read on its own connection. */
async function foldOf(url: string): Promise<string> {
  const store = await openEventStore({ eventStoreUrl: url, dataDir: tmpdir() });
  try {
    const fold = new ReportFold(ALL_REPORTS, TZ);
    await replayLog(store, fold);
    return toJson(fold.reports.map((r) => r.result({})));
  } finally {
    await store.close();
  }
}

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  t.test('the command line replays a PostgreSQL log named by URL: the same report as the night folded in memory', async (t) => {
    const url = await freshDatabase((await sharedPostgres()).url);
    const store = await openEventStore({ eventStoreUrl: url, dataDir: tmpdir() });
    await writeNight(store);
    // PostgreSQL's positions pack transaction ids: the reports name its head, not the night's count.
    const head = String(await store.headPosition());
    await store.close();
    const expected = new ReportFold(ALL_REPORTS, TZ);
    expected.apply(restaurantNight());
    t.equal(await cliByUrl(url), toJson(expected.reports.map((r) => ({ ...r.result({}), position: head }))));
  });
}

const esdb = process.env.COMANDA_TEST_ESDB_URL;
if (esdb) {
  t.test('the command line replays an EventStoreDB log named by URL: what a fold of its $all gives, the night included', async (t) => {
    const store = await openEventStore({ eventStoreUrl: esdb, dataDir: tmpdir() });
    // A server that is not empty (other suites write to it): the night on streams of its own.
    await writeNight(store, `${crypto.randomUUID().slice(0, 8)}`);
    await store.close();
    const printed = await cliByUrl(esdb);
    t.equal(printed, await foldOf(esdb));
    t.ok((JSON.parse(printed) as Array<{ report: string; sections: Record<string, unknown[]> }>).find((r) => r.report === 'sales')!.sections.by_day!.length > 0);
  });
} else {
  t.comment('the EventStoreDB case is not run: no server on this machine; set COMANDA_TEST_ESDB_URL to run it against one');
}
