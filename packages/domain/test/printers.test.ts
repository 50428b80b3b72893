import t from 'tap';
import { type PrintJobEvent, type PrinterEvent, type PrinterSetup, billPrinter, printJob, printers, stationPrinter, tillPrinter } from '../src/index.js';
import { given } from './given.js';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const GRILL = '33333333-3333-4333-8333-333333333333';
const BAR = '44444444-4444-4444-8444-444444444444';
const stations = [GRILL, BAR];

const setup = (changes: Partial<PrinterSetup> = {}): PrinterSetup => ({
  name: 'Grill printer', host: '192.168.1.50', port: 9100, paperWidth: 80, codePage: 'cp858', stationId: GRILL, stationMode: 'paper', till: false, devices: [], ...changes,
});
const added = (printerId: string, changes: Partial<PrinterSetup> = {}): PrinterEvent => ({ type: 'PrinterAdded', data: { printerId, ...setup(changes) } });

t.test('a printer is added with its setup, checked field by field', async (t) => {
  t.same(given(printers, []).when({ type: 'addPrinter', printerId: P1, stations, ...setup() }), { events: [added(P1)] });
  t.same(given(printers, []).when({
    type: 'addPrinter', printerId: P1, stations, ...setup({ name: ' ', host: 'http://x y', port: 70000, paperWidth: 76 as 80, codePage: 'utf8' as 'cp437', stationMode: 'sometimes' as 'paper', stationId: P2 }),
  }), {
    error: {
      kind: 'validation', message: 'Validation failed', details: {
        errors: [
          { field: 'name', message: 'must not be blank' },
          { field: 'host', message: 'must be a host name or IP address' },
          { field: 'port', message: 'must be 1-65535' },
          { field: 'paper_width', message: 'must be one of 58, 80' },
          { field: 'code_page', message: 'must be one of cp437, cp850, cp858, windows1252' },
          { field: 'station_mode', message: 'must be one of screen, paper, both' },
          { field: 'station_id', message: 'must reference an existing station' },
        ],
      },
    },
  });
  t.match(given(printers, [added(P1)]).when({ type: 'addPrinter', printerId: P1, stations, ...setup({ name: 'Other', stationId: null }) }), { error: { kind: 'conflict', message: 'This printer already exists' } });
});

t.test('a printer may serve some tablets\' bills: each tablet on one printer; their bills there, every other tablet\'s on the till\'s', async (t) => {
  const g = given(printers, [added(P1, { till: true, stationId: null }), added(P2, { name: 'Terrace', stationId: BAR, devices: ['Terraza 1'] })]);
  t.match(g.when({ type: 'addPrinter', printerId: GRILL, stations, ...setup({ name: 'Patio', stationId: null, devices: ['terraza 1'] }) }), { error: { kind: 'conflict', message: "Printer Terrace already prints Terraza 1's bills" } });
  t.match(g.when({ type: 'changePrinter', printerId: P2, stations, ...setup({ name: 'Terrace', stationId: BAR, devices: [' Terraza 1', 'Terraza 2 ', 'Terraza 2'] }) }), {
    events: [{ type: 'PrinterChanged', data: { devices: ['Terraza 1', 'Terraza 2'] } }],
  }, 'trimmed, each once');
  t.match(g.when({ type: 'changePrinter', printerId: P2, stations, ...setup({ name: 'Terrace', stationId: BAR, devices: [''] }) }), { error: { kind: 'validation', details: { errors: [{ field: 'devices' }] } } });
  const all = [{ id: 'till', till: true }, { id: 'terrace', till: false, devices: ['Terraza 1'] }, { id: 'old', till: false }];
  t.equal(billPrinter(all, 'TERRAZA 1')?.id, 'terrace', 'the tablet\'s own, its name in any case');
  t.equal(billPrinter(all, 'Barra')?.id, 'till');
  t.equal(billPrinter(all, null)?.id, 'till', 'a session without a device name: the till\'s');
  t.equal(billPrinter([], 'Terraza 1'), undefined);
});

t.test('names are unique ignoring case, one printer per station, one till printer', async (t) => {
  const g = given(printers, [added(P1, { till: true })]);
  t.same(g.when({ type: 'addPrinter', printerId: P2, stations, ...setup({ name: 'GRILL PRINTER', stationId: BAR }) }), { error: { kind: 'conflict', message: 'A printer named Grill printer already exists' } });
  t.same(g.when({ type: 'addPrinter', printerId: P2, stations, ...setup({ name: 'Pass' }) }), { error: { kind: 'conflict', message: "Printer Grill printer already prints this station's tickets" } });
  t.same(g.when({ type: 'addPrinter', printerId: P2, stations, ...setup({ name: 'Till', stationId: null, till: true }) }), { error: { kind: 'conflict', message: "Printer Grill printer is already the till's printer" } });
  t.same(g.when({ type: 'addPrinter', printerId: P2, stations, ...setup({ name: 'Bar', stationId: BAR, stationMode: 'both' }) }), { events: [added(P2, { name: 'Bar', stationId: BAR, stationMode: 'both' })] });
});

t.test('a printer is changed (If-Match on its version), or removed', async (t) => {
  const g = given(printers, [added(P1)]);
  t.same(g.state.printers[P1]?.version, 1);
  t.same(g.when({ type: 'changePrinter', printerId: P1, stations, ...setup() }), { events: [] }, 'the same setup writes nothing');
  t.same(g.when({ type: 'changePrinter', printerId: P1, stations, ifMatch: 1, ...setup({ host: 'printer-2.local', port: 9101 }) }), {
    events: [{ type: 'PrinterChanged', data: { printerId: P1, ...setup({ host: 'printer-2.local', port: 9101 }) } }],
  });
  t.match(g.when({ type: 'changePrinter', printerId: P1, stations, ifMatch: 2, ...setup() }), { error: { kind: 'precondition' } });
  t.match(g.when({ type: 'changePrinter', printerId: P2, stations, ...setup() }), { error: { kind: 'not_found' } });
  t.same(g.when({ type: 'removePrinter', printerId: P1 }), { events: [{ type: 'PrinterRemoved', data: { printerId: P1 } }] });
  t.match(g.when({ type: 'removePrinter', printerId: P2 }), { error: { kind: 'not_found' } });
  const changed = given(printers, [added(P1), { type: 'PrinterChanged', data: { printerId: P1, ...setup({ stationId: BAR }) } }]);
  t.same(changed.state.printers[P1]?.version, 2);
  t.same(stationPrinter(changed.state, BAR)?.id, P1);
  t.same(stationPrinter(changed.state, GRILL), undefined);
  t.same(tillPrinter(changed.state), undefined);
  t.same(given(printers, [added(P1), { type: 'PrinterRemoved', data: { printerId: P1 } }]).state, { printers: {} });
});

const JOB = '55555555-5555-4555-8555-555555555555';
const queuing = { jobId: JOB, printerId: P1, kind: 'kitchen' as const, title: 'T4 · Grill', data: 'G0A=', queuedAt: 1000 };
const queued: PrintJobEvent = { type: 'PrintJobQueued', data: queuing };

t.test('a print job is queued once, its failures counted, printed once', async (t) => {
  t.same(given(printJob, []).when({ type: 'queuePrintJob', ...queuing }), { events: [queued] });
  t.same(given(printJob, [queued]).when({ type: 'queuePrintJob', ...queuing }), { events: [] }, 'a reaction delivered twice queues nothing more');
  t.match(given(printJob, []).when({ type: 'recordPrinted', at: 2000 }), { error: { kind: 'not_found' } });
  const failed: PrintJobEvent = { type: 'PrintJobFailed', data: { jobId: JOB, printerId: P1, attempt: 1, error: 'connect ECONNREFUSED', at: 1500 } };
  t.same(given(printJob, [queued]).when({ type: 'recordPrintFailure', error: 'connect ECONNREFUSED', at: 1500 }), { events: [failed] });
  const g = given(printJob, [queued, failed]);
  t.match(g.state, { attempts: 1, lastError: 'connect ECONNREFUSED', printedAt: null });
  t.same(g.when({ type: 'recordPrinted', at: 3000 }), { events: [{ type: 'PrintJobPrinted', data: { jobId: JOB, printerId: P1, attempts: 2, at: 3000 } }] });
  const printed = given(printJob, [queued, failed, { type: 'PrintJobPrinted', data: { jobId: JOB, printerId: P1, attempts: 2, at: 3000 } }]);
  t.same(printed.when({ type: 'recordPrinted', at: 4000 }), { events: [] }, 'recorded printed once');
  t.match(printed.when({ type: 'recordPrintFailure', error: 'late', at: 4000 }), { error: { kind: 'conflict' } });
});
