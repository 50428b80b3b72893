import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '@comanda/config';
import { SqliteEventStore } from '@comanda/event-store';
import { UsageError, parseCli, runCli } from '../src/index.js';
import { TZ, restaurantNight } from './restaurant-day.js';

const dir = mkdtempSync(join(tmpdir(), 'comanda-analytics-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

// The hand-built night, written to a real SQLite log in a data dir, one append per stream run.
const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
const revisions = new Map<string, number>();
for (const e of restaurantNight()) {
  const expected = revisions.has(e.stream) ? revisions.get(e.stream)! : 'no_stream';
  await store.append(e.stream, [{ id: `00000000-0000-4000-8000-${String(e.position).padStart(12, '0')}`, type: e.type, data: e.data, metadata: e.metadata }], expected);
  revisions.set(e.stream, e.revision);
}
await store.close();
const config = loadConfig({ COMANDA_DATA_DIR: dir, COMANDA_TIMEZONE: TZ, COMANDA_LOG_LEVEL: 'silent' });

async function run(...argv: string[]): Promise<string> {
  let text = '';
  const out = new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } });
  await runCli(argv, config, out);
  return text;
}

t.test('arguments are checked', async (t) => {
  t.throws(() => parseCli(['--from', '2026-02-30']), UsageError);
  t.throws(() => parseCli(['--from', '2026-03-02', '--to', '2026-03-01']), UsageError);
  t.throws(() => parseCli(['--format', 'pdf']), UsageError);
  t.throws(() => parseCli(['--report', 'nope']), UsageError);
  t.throws(() => parseCli(['--colour']), UsageError);
  t.same(parseCli(['--from', '2026-03-01', '--report', 'sales', '--format', 'csv']).range, { from: '2026-03-01' });
});

t.test('JSON of one report: the hand-computed figures, replayed from the SQLite log', async (t) => {
  const json = JSON.parse(await run('--report', 'sales', '--format', 'json', '--from', '2026-03-29')) as { report: string; sections: { totals: Array<Record<string, unknown>> } };
  t.equal(json.report, 'sales');
  t.same(json.sections.totals[0], { currency: 'MXN', days: 1, orders: 2, covers: 3, lines: 4, gross: 315, discounts: 0, comps: 0, voids: 25, refunds: 30, net: 260, average_ticket: 157.5, average_per_cover: 105, lines_per_order: 2 });
});

t.test('deterministic: the same log gives byte-identical JSON and CSV', async (t) => {
  const [json1, json2] = [await run('--format', 'json'), await run('--format', 'json')];
  const [csv1, csv2] = [await run('--format', 'csv'), await run('--format', 'csv')];
  t.equal(json1, json2);
  t.equal(csv1, csv2);
  t.equal(JSON.parse(json1).reports.length, 9);
  // Pinned byte for byte: a change of output is a change of the report's version.
  t.equal(await run('--format', 'csv', '--report', 'payments'), [
    'report,section,method,name,payments,amount,share,tips,refunds,net,sats',
    'payments,by_method,credit_card,Credit card,1,190,45.78,0,30,160,0',
    'payments,by_method,cash,Cash,1,125,30.12,10,25,110,0',
    'payments,by_method,lightning,Lightning,1,100,24.1,0,0,100,5000',
    '',
    'report,section,day,method,payments,amount,tips,refunds,sats',
    'payments,by_day,2026-03-28,lightning,1,100,0,0,5000',
    'payments,by_day,2026-03-29,cash,1,125,10,25,0',
    'payments,by_day,2026-03-29,credit_card,1,190,0,30,0',
    '',
  ].join('\r\n'));
  t.match(await run('--format', 'csv', '--report', 'cancellations'), /cancellations,by_reason,void,wrong drink,1,25/);
});

t.test('table and --out', async (t) => {
  const table = await run('--report', 'kitchen');
  t.match(table, /Kitchen times \(kitchen v1, Europe\/Madrid\)/);
  t.match(table, /Grill\s+2\s+600\s+1500\s+1/);
  const file = join(dir, 'report.html');
  t.equal(await run('--format', 'html', '--out', file), '');
  const html = readFileSync(file, 'utf8');
  t.match(html, /<canvas id="chart-0"/);
  t.match(html, /Chart\.js v4/, 'the charting library is inlined');
  t.notMatch(html, /<script src=|<link /, 'nothing loaded from elsewhere');
});
