import t from 'tap';
import { printJob, printJobStream } from '@comanda/domain';
import { cookieHeader, servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';
import { checkoutService } from './checkout-helpers.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

t.test('a bill, then its receipt, on the till\'s printer: the same rows as the receipt, the footer, cash tendered and change', async (t) => {
  const s = await servedApp({ COMANDA_RESTAURANT_NAME: 'La Esquina', COMANDA_RECEIPT_FOOTER: 'Gracias por su visita' });
  t.teardown(() => s.close());
  const [admin, waiter, kitchen] = [await s.as('admin'), await s.as('waiter'), await s.as('kitchen')];
  const r = await setUpRestaurant(s.app, admin);
  const send = async (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
  };
  const waiterId = (await send(waiter, 'GET', '/auth/me')).body.id as string;
  const order = await send(waiter, 'POST', '/orders/with-dishes', {
    order: { user_id: waiterId, table_id: r.tables.t1, waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.pastor, quantity: 2 }, { dish_id: r.dishes.agua, notes: 'sin hielo' }],
  });
  const billId = (await send(waiter, 'POST', `/orders/${order.body.id}/tickets`, { split: 'none' })).body.ids[0] as string;

  t.match(await send(waiter, 'POST', `/tickets/${billId}/print`), { status: 409, body: { message: "No printer is the till's: set one in Printers" } });
  const till = (await send(admin, 'POST', '/printers', { name: 'Till', host: '127.0.0.1', port: 9100, paper_width: 80, code_page: 'cp858', till: true })).body.id as string;
  t.equal((await send(kitchen, 'POST', `/tickets/${billId}/print`)).status, 403, 'the kitchen prints no bills');
  t.equal((await send(waiter, 'POST', `/tickets/${UNKNOWN}/print`)).status, 404);
  t.equal((await send(waiter, 'POST', '/tickets/nope/print')).body, 'Missing or malformed ID');

  /** The text on the paper of a queued job (the rows are ASCII here: what the printer shows). */
  const paperOf = async (jobId: string) => {
    const { state } = await s.commands.state(printJob, printJobStream(jobId));
    return Buffer.from(state.data, 'base64').toString('latin1');
  };
  const bill = await send(waiter, 'POST', `/tickets/${billId}/print`, undefined, { 'idempotency-key': 'bill-1' });
  t.match(bill, { status: 202, body: { kind: 'bill', message: 'Bill queued for Till' } });
  t.equal((await send(waiter, 'POST', `/tickets/${billId}/print`, undefined, { 'idempotency-key': 'bill-1' })).body.id, bill.body.id, 'a retry queues nothing more');
  const receipt = (await send(waiter, 'GET', `/tickets/${billId}/receipt`)).body as string;
  const paper = await paperOf(bill.body.id);
  for (const line of receipt.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^-+$/.test(l))) t.ok(paper.includes(line), `on paper: ${line}`);
  t.match(paper, /La Esquina[\s\S]*2 x Taco al pastor +51\.00[\s\S]*sin hielo[\s\S]*TOTAL +81\.00[\s\S]*PENDING[\s\S]*Gracias por su visita/);
  // Issue 63: the bill still to pay carries its guest link, stored in the printer's QR function (GS ( k, cn 49, fn 80) and printed (fn 81).
  const link = (await send(waiter, 'GET', `/tickets/${billId}/guest-link`)).body.path as string;
  const stored = /\x1d\(k[\s\S]{2}1P0(http:\/\/[^\x00-\x1f]+)\x1d\(k\x03\x001Q0/.exec(paper);
  t.equal(stored?.[1], `${s.url}${link}`, 'the QR holds the address the tablet asked at, then the guest path');
  t.match(receipt.replaceAll('\n', ''), `${s.url}${link}`, 'the receipt page of a bill to pay ends with the same link');

  t.equal((await send(admin, 'POST', '/shifts/open', { cash_float: 100 })).status, 201);
  t.equal((await send(waiter, 'POST', `/tickets/${billId}/payments`, { method: 'cash', amount: 81, tip: 4, tendered: 100 })).status, 201);
  const paid = await send(waiter, 'POST', `/tickets/${billId}/print`);
  t.match(paid, { status: 202, body: { kind: 'receipt', message: 'Receipt queued for Till' } });
  const paidPaper = await paperOf(paid.body.id);
  t.match(paidPaper, /Tip +4\.00[\s\S]*TOTAL +85\.00[\s\S]*Cash +85\.00[\s\S]*Tendered +100\.00[\s\S]*Change +15\.00[\s\S]*PAID/);
  t.notOk(paidPaper.includes('/g/'), 'a receipt has nothing left to pay: no guest link');
  const reprint = await send(waiter, 'POST', `/tickets/${billId}/print`);
  t.not(reprint.body.id, paid.body.id, 'printed again: a reprint is another request');
  const queue = (await send(admin, 'GET', `/printers/jobs?printer_id=${till}`)).body as Array<{ kind: string; title: string }>;
  t.same(queue.map((j) => [j.kind, j.title]), [['bill', 'Bill · T1 · #1'], ['receipt', 'Receipt · T1 · #1'], ['receipt', 'Receipt · T1 · #1']]);
});

t.test('a tablet given its own printer prints its bills there; every other tablet on the till\'s', async (t) => {
  const s = await servedApp();
  t.teardown(() => s.close());
  const [admin, waiter, manager] = [await s.as('admin'), await s.as('waiter'), await s.as('manager')];
  const r = await setUpRestaurant(s.app, admin);
  const send = async (cookie: string, method: string, path: string, body?: unknown) => {
    const res = await s.request(path, cookie, {}, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  // The same waiter signed in on the terrace's tablet, which names itself so.
  const login = await s.app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'waiter-1', pin: '4321', device: 'Terraza 1' } });
  const terrace = cookieHeader(login.cookies);
  const waiterId = (await send(waiter, 'GET', '/auth/me')).body.id as string;
  const order = await send(waiter, 'POST', '/orders/with-dishes', { order: { user_id: waiterId, table_id: r.tables.t1, waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.pastor }] });
  const billId = (await send(waiter, 'POST', `/orders/${order.body.id}/tickets`, { split: 'none' })).body.ids[0] as string;

  const printer = { host: '127.0.0.1', port: 9100, paper_width: 58, code_page: 'cp858' };
  t.equal((await send(admin, 'POST', '/printers', { name: 'Till', ...printer, till: true })).status, 201);
  const added = await send(manager, 'POST', '/printers', { name: 'Terraza', ...printer, devices: [' Terraza 1 ', 'Terraza 1'] });
  t.equal(added.status, 201);
  t.same((await send(manager, 'GET', `/printers/${added.body.id}`)).body.devices, ['Terraza 1'], 'trimmed, once');
  t.match(await send(manager, 'POST', '/printers', { name: 'Patio', ...printer, devices: ['TERRAZA 1'] }), { status: 409, body: { message: "Printer Terraza already prints Terraza 1's bills" } });
  t.match(await send(manager, 'POST', '/printers', { name: 'Patio', ...printer, devices: ['   '] }), { status: 400, body: { errors: [{ field: 'devices' }] } });
  t.match(await send(manager, 'POST', '/printers', { name: 'Patio', ...printer, devices: Array.from({ length: 21 }, (_, i) => `Tablet ${i}`) }), { status: 400 });

  t.match(await send(terrace, 'POST', `/tickets/${billId}/print`), { status: 202, body: { message: 'Bill queued for Terraza' } }, 'from the terrace\'s tablet: its own printer');
  t.match(await send(waiter, 'POST', `/tickets/${billId}/print`), { status: 202, body: { message: 'Bill queued for Till' } }, 'from any other: the till\'s');
  t.equal((await send(manager, 'PUT', `/printers/${added.body.id}`, { name: 'Terraza', ...printer, devices: [] })).status, 200);
  t.match(await send(terrace, 'POST', `/tickets/${billId}/print`), { status: 202, body: { message: 'Bill queued for Till' } }, 'taken back: the till\'s again');
});

t.test('a receipt paid over Lightning says the amount in sats, on screen and on paper', async (t) => {
  const s = await checkoutService(t);
  const id = await s.ticketFor();
  const invoice = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
  await s.wallet.payInvoice({ invoice: invoice.invoice });
  await s.arrive(invoice.payment_hash);
  t.match(await s.ticket(id), { status: 2 });
  t.equal((await s.admin('POST', '/printers', { name: 'Till', host: 'till.local', port: 9100, paper_width: 58, code_page: 'cp437', till: true })).status, 201);
  const sats = `${(invoice.amount_sat as number).toLocaleString('en')} sats`;
  t.match((await s.waiter('GET', `/tickets/${id}/receipt`)).body, new RegExp(`Lightning +47\\.50\\n +${sats}\\n`));
  const printed = await s.waiter('POST', `/tickets/${id}/print`);
  t.match(printed, { status: 202, body: { kind: 'receipt' } });
  const { state } = await s.commands.state(printJob, printJobStream(printed.body.id));
  const paper = Buffer.from(state.data, 'base64').toString('latin1');
  t.match(paper, new RegExp(`Lightning {18}47\\.50\\n  ${sats}\\n`), '32 columns on 58 mm: the amount at the right edge, the sats under it');
});
