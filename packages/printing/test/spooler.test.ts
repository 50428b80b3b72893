import t from 'tap';
import { PRINTERS_STREAM, printJob, printJobStream, printers } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { PRINTERS, PRINT_JOBS, type PrintJobView, type PrinterView, printJobsProjection, printersProjection } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { type SendToPrinter, Spooler, sendOverTcp } from '../src/index.js';
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
  const send = sendOverTcp(300);
  await send('127.0.0.1', port, Buffer.from('one'));
  t.same(received.map(String), ['one']);
  await t.rejects(send('127.0.0.1', port, Buffer.from('two')), /ECONNRESET/);
  await t.rejects(send('127.0.0.1', port, Buffer.from('three')), /no answer from 127.0.0.1:\d+ within 300 ms/);
  await t.rejects(send('127.0.0.1', 1, Buffer.from('four')), /ECONNREFUSED/);
});
