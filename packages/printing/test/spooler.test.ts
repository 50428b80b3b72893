import t from 'tap';
import { PRINTERS_STREAM, printJob, printJobStream, printers } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { PRINTERS, PRINT_JOBS, type PrintJobView, type PrinterView, printJobsProjection, printersProjection } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { STATUS_QUERY, type SendToPrinter, Spooler, printerFaults, sendOverTcp, statusAnswers } from '../src/index.js';
import { type Socket, createServer } from 'node:net';

const PRINTER = '11111111-1111-4111-8111-111111111111';
const JOBS = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-${c.repeat(4)}-4${c.repeat(3)}-8${c.repeat(3)}-${c.repeat(12)}`);

/** The printers and the queue over memory stores, their read models kept by following the log. */
async function queue(t: Tap.Test, send: SendToPrinter, now = () => Date.now()) {
  const store = new MemoryEventStore();
  const readStore = new MemoryReadStore();
  let seen = 0n;
  const follow = { paused: false };
  const subscription = store.subscribeToAll(null, {
    async onEvents(events) {
      while (follow.paused) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const e of events) {
        for (const p of [printersProjection, printJobsProjection]) if (p.handles.includes(e.type)) await p.apply(e, readStore);
        seen = e.position;
      }
    },
  });
  t.teardown(() => subscription.close());
  const commands = new CommandHandler(store);
  const settled = async () => {
    const head = await store.headPosition();
    while (head !== null && seen < head) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  await commands.handle(printers, PRINTERS_STREAM, {
    type: 'addPrinter', printerId: PRINTER, stations: [], name: 'Pass', host: '127.0.0.1', port: 9, paperWidth: 80, codePage: 'cp858', stationId: null, stationMode: 'paper', till: true,
  });
  for (const [i, jobId] of JOBS.entries()) {
    await commands.handle(printJob, printJobStream(jobId), { type: 'queuePrintJob', jobId, printerId: PRINTER, kind: 'kitchen', title: `job ${i}`, data: Buffer.from(`job ${i}`).toString('base64'), queuedAt: i });
  }
  await settled();
  const warnings: object[] = [];
  const spooler = new Spooler({
    commands, jobs: readStore.collection<PrintJobView>(PRINT_JOBS), printers: readStore.collection<PrinterView>(PRINTERS),
    send, warn: (details) => warnings.push(details), retryFirstMs: 1000, retryMaxMs: 4000, now,
  });
  const pass = async () => {
    await spooler.tick();
    await spooler.stop();
    await settled();
  };
  const jobs = () => readStore.collection<PrintJobView>(PRINT_JOBS).find({}, { sort: { seq: 1 } });
  return { commands, spooler, pass, jobs, warnings, settled, follow };
}

t.test('one printer\'s jobs go one at a time, oldest first, each recorded printed once', async (t) => {
  const sent: string[] = [];
  const q = await queue(t, async (_host, _port, bytes) => void sent.push(Buffer.from(bytes).toString()));
  for (let i = 0; i < 3; i++) {
    await q.spooler.tick();
    await q.settled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await q.settled();
  }
  await q.spooler.stop();
  t.same(sent, ['job 0', 'job 1', 'job 2']);
  t.same((await q.jobs()).map((j) => [j.status, j.attempts]), [['printed', 1], ['printed', 1], ['printed', 1]]);
});

t.test('started, the spooler polls the queue until stopped', async (t) => {
  const sent: string[] = [];
  const q = await queue(t, async (_host, _port, bytes) => void sent.push(Buffer.from(bytes).toString()));
  q.spooler.start();
  for (let i = 0; i < 200 && sent.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  await q.spooler.stop();
  t.same(sent, ['job 0', 'job 1', 'job 2']);
});

t.test('a printer that refuses: the failure is recorded on the oldest job, the next try waits its backoff, the others wait behind it', async (t) => {
  let clock = 10_000;
  const tries: string[] = [];
  const q = await queue(t, async (_h, _p, bytes) => {
    tries.push(Buffer.from(bytes).toString());
    throw new Error('connect ECONNREFUSED 127.0.0.1:9');
  }, () => clock);
  await q.pass();
  t.same(tries, ['job 0']);
  t.match(await q.jobs(), [{ status: 'queued', attempts: 1, last_error: 'connect ECONNREFUSED 127.0.0.1:9' }, { attempts: 0 }, { attempts: 0 }]);
  t.match(q.warnings, [{ printer: 'Pass', attempt: 1 }], 'and logged');
});

t.test('backoff doubles from the first wait up to the most, and a success clears it', async (t) => {
  let clock = 0;
  let up = false;
  const tries: number[] = [];
  const q = await queue(t, async () => {
    tries.push(clock);
    if (!up) throw new Error('down');
  }, () => clock);
  const spin = async () => {
    await q.spooler.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await q.settled();
  };
  for (const at of [0, 500, 1000, 2500, 3000, 7000, 11_000, 14_000, 15_000]) {
    clock = at;
    await spin();
  }
  t.same(tries, [0, 1000, 3000, 7000, 11_000, 15_000], 'tries after 1 s, 2 s, 4 s, then every 4 s');
  up = true;
  clock = 19_000;
  await spin();
  clock = 19_001;
  await spin();
  await q.spooler.stop();
  t.same(tries.slice(6), [19_000, 19_001], 'back up: the next job at once');
});

t.test('a job already recorded printed is never sent again, whatever the read model still says', async (t) => {
  const sent: string[] = [];
  const q = await queue(t, async (_h, _p, bytes) => void sent.push(Buffer.from(bytes).toString()));
  // The read model stops following, as when it lags: job 0 stays `queued` there once it is printed.
  q.follow.paused = true;
  await q.spooler.tick();
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(sent, ['job 0']);
  t.match(await q.jobs(), [{ id: JOBS[0], status: 'queued' }], 'the read model still shows it queued');
  await q.spooler.tick();
  await q.spooler.stop();
  t.same(sent, ['job 0'], 'its stream says printed: not sent again');
  q.follow.paused = false;
});

t.test('over TCP: printed once the printer closes its side; a reset, a silence or a refusal is not printed', async (t) => {
  const received: Buffer[] = [];
  const behaviours: Array<'ack' | 'reset' | 'silent'> = ['ack', 'reset', 'silent'];
  // Half-open allowed: Node would otherwise close our side for us, and a silent printer would not be silent.
  const sockets: Socket[] = [];
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.push(socket);
    const behaviour = behaviours.shift();
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      received.push(Buffer.concat(chunks));
      if (behaviour === 'ack') socket.end();
      else if (behaviour === 'reset') socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  }));
  const port = (server.address() as { port: number }).port;
  const send = sendOverTcp(300, 50);
  await send('127.0.0.1', port, Buffer.from('one'));
  t.same(received.map(String), [`${Buffer.from(STATUS_QUERY)}one${Buffer.from(STATUS_QUERY)}`], 'asked its status (no answer: a printer without), then printed');
  await t.rejects(send('127.0.0.1', port, Buffer.from('two')), /ECONNRESET/);
  await t.rejects(send('127.0.0.1', port, Buffer.from('three')), /no answer from 127.0.0.1:\d+ within 300 ms/);
  await t.rejects(send('127.0.0.1', 1, Buffer.from('four')), /ECONNREFUSED/);
});

type PaperState = { paperOut?: boolean; coverOpen?: boolean };

/**
 * A printer on TCP that answers DLE EOT queries from `state()` (null: one that ignores them), keeps the
 * job bytes without the queries, and closes its side when ours is closed.
 */
async function statusPrinter(t: Tap.Test, state: () => PaperState | null) {
  const received: string[] = [];
  const server = createServer((socket) => {
    const data: number[] = [];
    socket.on('data', (chunk: Buffer) => {
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] === 0x10 && chunk[i + 1] === 0x04) {
          const s = state();
          const n = chunk[i + 2]!;
          if (s) socket.write(Uint8Array.of(statusAnswers(s)[n === 1 ? 0 : n === 2 ? 1 : 2]!));
          i += 2;
        } else data.push(chunk[i]!);
      }
    });
    socket.on('end', () => received.push(Buffer.from(data).toString()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as { port: number }).port, received };
}

t.test('over TCP, the printer\'s status: out of paper or cover open before the job sends nothing; found after it, the job is not printed', async (t) => {
  let before: PaperState = { paperOut: true };
  let after: PaperState = {};
  let asked = 0;
  const printer = await statusPrinter(t, () => (asked++ % 6 < 3 ? before : after));
  const send = sendOverTcp(1000, 1000);
  await t.rejects(send('127.0.0.1', printer.port, Buffer.from('one')), { message: 'out of paper' });
  t.same(printer.received.filter((r) => r !== ''), [], 'asked, told, and nothing sent');
  asked = 0;
  before = { coverOpen: true };
  await t.rejects(send('127.0.0.1', printer.port, Buffer.from('two')), { message: 'cover open' });
  asked = 0;
  before = {};
  after = { paperOut: true };
  await t.rejects(send('127.0.0.1', printer.port, Buffer.from('three')), { message: 'out of paper' }, 'ran out while printing: printed again in full later');
  asked = 0;
  after = {};
  await send('127.0.0.1', printer.port, Buffer.from('four'));
  t.same(printer.received.filter((r) => r !== ''), ['three', 'four']);
});

t.test('a printer that never answers a status query: printed on its close; after the first, its jobs do not wait for an answer', async (t) => {
  const printer = await statusPrinter(t, () => null);
  const send = sendOverTcp(2000, 400);
  let started = Date.now();
  await send('127.0.0.1', printer.port, Buffer.from('one'));
  t.ok(Date.now() - started >= 400, 'the first job waited the status timeout');
  started = Date.now();
  await send('127.0.0.1', printer.port, Buffer.from('two'));
  t.ok(Date.now() - started < 300, `the second did not (${Date.now() - started} ms)`);
  t.same(printer.received, ['one', 'two']);
});

t.test('the spooler: a printer out of paper keeps the job queued with "out of paper", retries it, and prints it once when paper is back', async (t) => {
  let paper: PaperState = { paperOut: true };
  const printer = await statusPrinter(t, () => paper);
  const tcp = sendOverTcp(1000, 1000);
  const q = await queue(t, (_h, _p, bytes) => tcp('127.0.0.1', printer.port, bytes));
  for (let i = 0; i < 100 && (await q.jobs())[0]!.attempts === 0; i++) {
    await q.spooler.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await q.settled();
  }
  t.match(await q.jobs(), [{ status: 'queued', attempts: 1, last_error: 'out of paper' }, { attempts: 0 }, { attempts: 0 }]);
  t.same(printer.received.filter((r) => r !== ''), [], 'nothing printed');
  paper = {};
  for (let i = 0; i < 400 && (await q.jobs()).some((j) => j.status === 'queued'); i++) {
    await q.spooler.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await q.settled();
  }
  await q.spooler.stop();
  t.same(printer.received.filter((r) => r !== ''), ['job 0', 'job 1', 'job 2'], 'each once, in order');
  t.same((await q.jobs()).map((j) => [j.status, j.attempts]), [['printed', 2], ['printed', 1], ['printed', 1]]);
});

t.test('what the status bytes say', async (t) => {
  t.same(printerFaults(statusAnswers({})), []);
  t.same(printerFaults(statusAnswers({ paperOut: true, coverOpen: true })), ['out of paper', 'cover open']);
  t.same(printerFaults([0x1a, 0x12, 0x12]), ['offline'], 'offline for no reason it gives');
  t.same(printerFaults([0x1a, 0x52, 0x12]), ['printer error']);
  t.same(printerFaults([0x12, 0x12, 0x1e]), [], 'paper near its end still prints');
});
