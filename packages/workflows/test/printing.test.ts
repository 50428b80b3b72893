import t from 'tap';
import { MENU_STREAM, PRINTERS_STREAM, type StationMode, kitchenTicket, kitchenTicketStream, menu, newId, printJob, printJobId, printJobStream, printers } from '@comanda/domain';
import { printKitchenTicket } from '../src/index.js';
import { restaurant } from './restaurant.js';

/** Given a grill with a printer in `mode` and a ticket opened there, with the screens as `screenGone` says. */
async function kitchen(mode: StationMode | null) {
  const r = await restaurant();
  const grill = newId();
  const printer = newId();
  const ticketId = newId();
  await r.commands.handle(menu, MENU_STREAM, { type: 'addStation', stationId: grill, name: 'Grill' });
  if (mode) {
    await r.commands.handle(printers, PRINTERS_STREAM, {
      type: 'addPrinter', printerId: printer, stations: [grill], name: 'Grill', host: '10.0.0.9', port: 9100, paperWidth: 58, codePage: 'cp858', stationId: grill, stationMode: mode, till: false,
    });
  }
  const lineId = newId();
  await r.commands.handle(kitchenTicket, kitchenTicketStream(ticketId), {
    type: 'openTicket', ticketId, orderId: newId(), stationId: grill, tableId: r.ids.t1, tableName: 'T1', waiter: 'Beto', orderNumber: 3, firedAt: 1000,
    lines: [{ lineId, dishId: r.ids.pastor, dishName: 'Taco al pastor', notes: 'sin cebolla', quantity: 2, course: 1, seat: null }],
  });
  const print = (paper: Parameters<typeof printKitchenTicket>[1], gone = false) =>
    printKitchenTicket(r.commands, paper, { timezone: 'UTC', screenGone: async () => gone }, { userId: null });
  const job = async (jobId: string) => (await r.commands.state(printJob, printJobStream(jobId))).state;
  return { ...r, grill, printer, ticketId, lineId, print, job };
}

t.test('a fired ticket queues its paper at the station\'s printer, once per event', async (t) => {
  const k = await kitchen('paper');
  const jobId = await k.print({ kind: 'fired', ticketId: k.ticketId, causeId: 'event-1', at: 2000 });
  t.equal(jobId, printJobId('event-1'));
  t.match(await k.job(jobId!), { queued: true, printerId: k.printer, kind: 'kitchen', title: 'T1 · Grill', queuedAt: 2000, stationId: k.grill });
  t.equal((await k.job(jobId!)).fallback, undefined, 'a paper station prints every ticket: not the fallback');
  t.match(Buffer.from((await k.job(jobId!)).data, 'base64').toString('latin1'), /Order #3 \xfa Grill[\s\S]*2 x Taco al[\s\S]*! sin cebolla/, "in CP858 (· is 0xFA)");
  t.equal(await k.print({ kind: 'fired', ticketId: k.ticketId, causeId: 'event-1', at: 9000 }), jobId, 'delivered again: the same job');
  t.equal((await k.appended(printJobStream(jobId!))).length, 1, 'queued once');
});

t.test('a fired line taken back prints as a void', async (t) => {
  const k = await kitchen('both');
  const jobId = await k.print({ kind: 'void', ticketId: k.ticketId, lineId: k.lineId, causeId: 'event-2', at: 3000 });
  t.match(await k.job(jobId!), { title: 'VOID 2 x Taco al pastor · T1' });
  t.equal(await k.print({ kind: 'void', ticketId: k.ticketId, lineId: newId(), causeId: 'event-3', at: 3000 }), null, 'a line the ticket never had prints nothing');
});

t.test('what prints: paper and both always, screen only while its display is gone, no printer or no ticket nothing', async (t) => {
  for (const [mode, gone, prints] of [['paper', false, true], ['both', false, true], ['screen', false, false], ['screen', true, true], [null, true, false]] as const) {
    const k = await kitchen(mode);
    const jobId = await k.print({ kind: 'fired', ticketId: k.ticketId, causeId: newId(), at: 1 }, gone);
    t.equal(jobId !== null, prints, `${mode ?? 'no printer'}, screen ${gone ? 'gone' : 'there'}`);
    if (jobId) t.equal((await k.job(jobId)).fallback, mode === 'screen' ? true : undefined, `${mode}: the fallback's paper is marked so`);
  }
  const k = await kitchen('paper');
  t.equal(await k.print({ kind: 'fired', ticketId: newId(), causeId: 'x', at: 1 }), null, 'an unknown ticket');
});
