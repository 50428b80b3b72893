import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clockTime } from '@comanda/printing';
import { Client } from '../src/http-client.js';
import { kitchenRestaurant } from '../src/kitchen-setup.js';
import { type PrintedJob, PrinterSimulator } from '../src/printer-simulator.js';
import { type StandaloneProcess, startStandalone } from '../src/standalone-process.js';

const TIMEZONE = 'Europe/Madrid';

/** A standalone with its data dir, a restaurant (grill and bar stations) and a printer simulator per station. */
async function service(t: Tap.Test) {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-paper-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_TIMEZONE: TIMEZONE, COMANDA_PRINT_RETRY_MAX_SECONDS: '1', COMANDA_KITCHEN_PAPER_FALLBACK_SECONDS: '2' };
  let pos: StandaloneProcess = await startStandalone(env);
  t.teardown(() => pos.stop());
  const r = await kitchenRestaurant(pos.url);
  const grillPaper = new PrinterSimulator('cp437');
  const barPaper = new PrinterSimulator('cp437');
  const [grillPort, barPort] = [await grillPaper.start(), await barPaper.start()];
  t.teardown(() => grillPaper.stop());
  t.teardown(() => barPaper.stop());
  const printer = async (body: Record<string, unknown>) => {
    const res = await r.admin.post('/printers', { host: '127.0.0.1', paper_width: 80, ...body });
    if (res.status !== 201) throw new Error(`printer not added: ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  };
  const grillPrinter = await printer({ name: 'Grill', port: grillPort, code_page: 'cp858', station_id: r.grill, station_mode: 'paper' });
  const barPrinter = await printer({ name: 'Bar', port: barPort, code_page: 'windows1252', station_id: r.bar, station_mode: 'both' });
  const chef = new Client(pos.url);
  await chef.login('chef', '3690');
  return {
    r, env, grillPaper, barPaper, grillPrinter, barPrinter, chef,
    get pos() { return pos; },
    restart: async (kill: boolean) => {
      if (kill) {
        pos.child.kill('SIGKILL');
        await new Promise((resolve) => pos.child.once('exit', resolve));
      } else await pos.stop();
      pos = await startStandalone(env);
    },
  };
}

/** What the paper says, without the blank feed lines and the rule. */
const words = (job: PrintedJob) => job.text.filter((l) => l !== '' && !/^[─-]+$/.test(l));

type Ticket = { id: string; order_number: number; fired_at: string; station_id: string };

/** The order numbers on a printer's paper, in the order it printed them. */
const numbersOn = (jobs: PrintedJob[]) => jobs.map((j) => Number(/Order #(\d+)/.exec(j.text.join('\n'))?.[1]));

// The printer's minute runs beside the other scenarios (two at a time), which run one after another among
// themselves: its waiting overlaps theirs instead of adding a minute to the file.
t.jobs = 2;
// Four standalones in all, two at a time on a shared machine: more than the suite's default two minutes.
t.setTimeout(240_000);

t.test('a printer down for a minute while the fires keep coming, then back, gets its jobs once and in order; the queue shows their attempts and last error meanwhile', async (t) => {
  const s = await service(t);
  await s.grillPaper.stop();
  // The minute, in real time: a ticket fired every 5 s until the grill's printer has been off 60 s.
  const downAt = Date.now();
  let fired = 0;
  while (Date.now() - downAt < 60_000) {
    await s.r.fireOrder();
    fired++;
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, Math.max(0, downAt + 60_000 - Date.now()))));
  }
  await s.barPaper.waitForJobs(fired);
  const queue = (await s.r.admin.get(`/printers/jobs?printer_id=${s.grillPrinter}`)).body as Array<{ attempts: number; last_error: string | null; age_seconds: number }>;
  t.equal(queue.length, fired, `the ${fired} tickets fired wait for the grill`);
  t.ok(queue[0]!.attempts >= 10 && queue[0]!.age_seconds >= 55, `the oldest tried again and again (${queue[0]!.attempts} times in ${queue[0]!.age_seconds} s)`);
  t.match(queue[0]!.last_error, /ECONNREFUSED/);
  t.same(queue.slice(1).map((j) => j.attempts), Array(fired - 1).fill(0), 'the others wait their turn: in order');
  await s.grillPaper.start();
  const jobs = await s.grillPaper.waitForJobs(fired);
  const numbers = numbersOn(jobs);
  t.same(numbers, [...numbers].sort((a, b) => a - b), `in the order fired: ${numbers.join(', ')}`);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal(s.grillPaper.jobs.length, fired, 'each once');
  t.same((await s.r.admin.get('/printers/jobs')).body, []);
});

t.test('a dinner, a kill -9 mid-queue and a kitchen screen gone, one after another', async (t) => {
  t.jobs = 1;
  t.test('a dinner: two courses fired to a paper-only grill and a bar that prints and shows; the paper says what the tickets say', async (t) => {
    const s = await service(t);
    const { r } = s;
    const tacos = ((await r.admin.get(`/dishes/${r.pastor}`)).body as { category_id: string }).category_id;
    const brulee = (await r.admin.post('/dishes', { name: 'Crème brûlée', price: 7.5, category_id: tacos })).headers.get('location')!.split('/').pop()!;
    const waiterId = ((await r.waiter.get('/auth/me')).body as { id: string }).id;
    const orderId = ((await r.waiter.post('/orders', { user_id: waiterId, table_id: r.table, waiter: 'Marisol' })).body as { id: string }).id;
    t.equal((await r.waiter.post(`/orders/${orderId}/dishes`, [
      { dish_id: r.pastor, quantity: 2, course: 1, seat: 1, notes: 'sin cebolla' },
      { dish_id: r.agua, course: 1, seat: 2 },
      { dish_id: brulee, course: 2, seat: 1 },
    ])).status, 201);

    const first = await r.waiter.post(`/orders/${orderId}/fire`, { course: 1 });
    t.equal(first.status, 200);
    const [grill1, bar1] = await Promise.all([s.grillPaper.waitForJobs(1), s.barPaper.waitForJobs(1)]);
    const tickets = (await s.chef.get(`/kitchen/tickets?station_id=${r.bar}`)).body as Ticket[];
    t.equal(tickets.length, 1, 'the bar prints and its screen shows the ticket too');
    const { order_number: number, fired_at: firedAt } = tickets[0]!;
    const time = clockTime(Date.parse(firedAt), TIMEZONE);
    t.same(words(grill1[0]!), ['T7', `Order #${number} · Grill`, `Marisol · ${time}`, 'Course 1', '2 x Taco al pastor', '  Seat 1', '  ! sin cebolla']);
    t.same(words(bar1[0]!), ['T7', `Order #${number} · Bar`, `Marisol · ${time}`, 'Course 1', '1 x Agua de horchata', '  Seat 2']);
    t.match(grill1[0]!.lines.find((l) => l.text.includes('sin cebolla')), { height: 2 }, 'notes in large type');
    t.equal(grill1[0]!.cuts, 1, 'cut once');

    t.equal((await r.waiter.post(`/orders/${orderId}/fire`, { course: 2 })).status, 200);
    const grill2 = await s.grillPaper.waitForJobs(2);
    const course2 = ((await s.chef.get(`/kitchen/tickets?station_id=${r.grill}`)).body as Ticket[]).find((k) => k.fired_at !== firedAt)!;
    t.same(words(grill2[1]!), ['T7', `Order #${number} · Grill`, `Marisol · ${clockTime(Date.parse(course2.fired_at), TIMEZONE)}`, 'Course 2', '1 x Crème brûlée', '  Seat 1'], 'accents in CP858');

    // A fired line taken back prints as a void at its station.
    const lines = (await r.admin.get(`/orders/${orderId}/dishes`)).body as Array<{ id: string; dish_id: string }>;
    const agua = lines.find((l) => l.dish_id === r.agua)!;
    const voided = await r.admin.delete(`/orders/${orderId}/dishes/${agua.id}`);
    t.equal(voided.status, 200, JSON.stringify(voided.body));
    const bar2 = await s.barPaper.waitForJobs(2);
    t.match(words(bar2[1]!).join(' '), new RegExp(`^VOID T7 Order #${number} · Bar Marisol · \\d\\d:\\d\\d VOID 1 x Agua de horchata {3}Seat 2$`), 'VOID, then the line in double size (wrapped at 21 characters)');

    // A test page from the back office: the euro sign in windows-1252.
    t.equal((await r.admin.post(`/printers/${s.barPrinter}/test`)).status, 202);
    const bar3 = await s.barPaper.waitForJobs(3);
    t.ok(words(bar3[2]!).includes('Price: 12,50 €'), 'the euro sign prints');
    t.ok(words(bar3[2]!).includes('Crème brûlée, jalapeño, Würstel'));
    // The bill at the table, then the receipt once paid, on the till's printer: the paper says what the receipt says.
    const tillPaper = new PrinterSimulator('cp437');
    const tillPort = await tillPaper.start();
    t.teardown(() => tillPaper.stop());
    t.equal((await r.admin.post('/printers', { name: 'Till', host: '127.0.0.1', port: tillPort, paper_width: 80, code_page: 'cp858', till: true })).status, 201);
    const billId = ((await r.waiter.post(`/orders/${orderId}/tickets`, { split: 'none' })).body as { ids: string[] }).ids[0]!;
    const receiptLines = async () => (await r.waiter.text(`/tickets/${billId}/receipt`)).split('\n').map((l) => l.trim()).filter((l) => l !== '');
    t.equal((await r.waiter.post(`/tickets/${billId}/print`)).status, 202);
    const [billPaper] = await tillPaper.waitForJobs(1);
    t.same(billPaper!.text.map((l) => l.trim()).filter((l) => l !== ''), await receiptLines(), 'the bill on paper is the bill on screen, line for line');
    t.equal((await r.admin.post('/shifts/open', { cash_float: 100 })).status, 201);
    const total = ((await r.waiter.get(`/tickets/${billId}`)).body as { total: number }).total;
    t.equal((await r.waiter.post(`/tickets/${billId}/payments`, { method: 'cash', amount: total, tip: 5, tendered: 200 })).status, 201);
    t.equal((await r.waiter.post(`/tickets/${billId}/print`)).status, 202);
    const receiptPaper = (await tillPaper.waitForJobs(2))[1]!;
    const receipt = receiptPaper.text.map((l) => l.trim()).filter((l) => l !== '');
    t.same(receipt, await receiptLines(), 'the receipt on paper is the receipt on screen');
    t.ok(receipt.some((l) => /^Change +/.test(l)) && receipt.includes('PAID'), 'with the change, marked paid');
    t.same(tillPaper.errors, []);

    let printed: Array<{ kind: string; attempts: number }> = [];
    // The printer acknowledged; the spooler records it a moment later.
    for (let i = 0; i < 50 && printed.length < 7; i++) {
      printed = (await r.admin.get('/printers/jobs?status=printed')).body as typeof printed;
      if (printed.length < 7) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.same(printed.map((j) => [j.kind, j.attempts]), [['receipt', 1], ['bill', 1], ['test', 1], ['kitchen', 1], ['kitchen', 1], ['kitchen', 1], ['kitchen', 1]], 'each printed at the first attempt');
    t.same((await r.admin.get('/printers/jobs')).body, [], 'nothing left in the queue');
    t.same(s.grillPaper.errors.concat(s.barPaper.errors), []);
  });


  t.test('kill -9 of the standalone mid-queue: what the printer acknowledged is not printed again, nothing queued is lost', async (t) => {
    const s = await service(t);
    await s.grillPaper.stop();
    for (let i = 0; i < 4; i++) await s.r.fireOrder();
    // The grill takes two tickets and is unplugged before the third: two printed, two left queued.
    s.grillPaper.stopAfter(2);
    await s.grillPaper.start();
    await s.grillPaper.waitForJobs(2);
    for (let i = 0; i < 100; i++) {
      const printed = (await s.r.admin.get(`/printers/jobs?status=printed&printer_id=${s.grillPrinter}`)).body as unknown[];
      const queued = (await s.r.admin.get(`/printers/jobs?printer_id=${s.grillPrinter}`)).body as Array<{ attempts: number }>;
      if (printed.length === 2 && queued.length === 2 && queued[0]!.attempts > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await s.restart(true);
    s.grillPaper.stopAfter(Infinity);
    await s.grillPaper.start();
    const jobs = await s.grillPaper.waitForJobs(4);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const numbers = numbersOn(s.grillPaper.jobs);
    t.equal(numbers.length, 4, `four tickets on paper, none twice: ${numbers.join(', ')}`);
    t.same(numbers, [...new Set(numbers)].sort((a, b) => a - b), 'each once, in the order fired');
    t.equal(jobs.length, 4);
    const admin = new Client(s.pos.url);
    await admin.login('admin', '1234');
    t.same((await admin.get('/printers/jobs')).body, [], 'the queue is empty after the restart');
  });

  t.test('a screen-mode station: paper only while its kitchen screen has been gone longer than the fallback time', async (t) => {
    const s = await service(t);
    t.equal((await s.r.admin.put(`/printers/${s.grillPrinter}`, { name: 'Grill', host: '127.0.0.1', port: s.grillPaper.port, paper_width: 80, code_page: 'cp858', station_id: s.r.grill, station_mode: 'screen' })).status, 200);
    await s.r.fireOrder();
    const first = await s.grillPaper.waitForJobs(1);
    t.match(first[0]!.text.join('\n'), /Order #1 · Grill/, 'no screen ever connected: the printer prints');

    const screen = await s.chef.stream(`/kitchen/events?station_id=${s.r.grill}`);
    await s.r.fireOrder();
    await s.barPaper.waitForJobs(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.equal(s.grillPaper.jobs.length, 1, 'the screen is there: no paper');

    screen.close();
    await s.r.fireOrder();
    await s.barPaper.waitForJobs(3);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.equal(s.grillPaper.jobs.length, 1, 'the screen has just gone: not yet');

    await new Promise((resolve) => setTimeout(resolve, 1500));
    await s.r.fireOrder();
    const jobs = await s.grillPaper.waitForJobs(2);
    t.match(jobs[1]!.text.join('\n'), /Order #4 · Grill/, 'gone longer than the fallback time: the printer takes over');
    t.equal(s.grillPaper.jobs.length, 2);
  });
});
