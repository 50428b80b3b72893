import { renderKitchenTicket, renderTestPage, renderVoid } from '@comanda/printing';
import { connect } from 'node:net';
import t from 'tap';
import { PrinterSimulator, parseEscPos } from '../src/printer-simulator.js';

// The simulator is the tests' printer: what it parses must be what the paper shows, or every
// printing test downstream proves nothing. Here it reads what the encoder library writes.
const heading = { tableName: 'Terrasse 4', orderNumber: 12, waiter: 'Zoë', stationName: 'Grill', at: Date.UTC(2026, 10, 28, 18, 42) };

t.test('a kitchen ticket reads as the cooks see it, accents and sizes included', async (t) => {
  const bytes = renderKitchenTicket({ paperWidth: 80, codePage: 'cp858' }, heading, [
    { dishName: 'Entrecôte', quantity: 2, course: 2, seat: 3, modifiers: ['saignant'], notes: 'sans sel', allergens: [] },
    { dishName: 'Crème brûlée', quantity: 1, course: 3, seat: null, notes: '' },
  ], 'Europe/Madrid');
  const job = parseEscPos(bytes);
  t.same(job.text.filter((l) => l !== '' && !/^─+$/.test(l)), [
    'Terrasse 4', 'Order #12 · Grill', 'Zoë · 19:42', 'Course 2', '2 x Entrecôte', '  Seat 3', '  + saignant', '  ! sans sel', 'Course 3', '1 x Crème brûlée',
  ]);
  t.equal(job.cuts, 1);
  t.match(job.lines.find((l) => l.text.includes('Entrecôte')), { width: 2, height: 2 }, 'the dish in double size');
  t.match(job.lines.find((l) => l.text.includes('saignant')), { width: 1, height: 2 }, 'options in double height');
  t.match(job.lines.find((l) => l.text.includes('sans sel')), { width: 1, height: 2 }, 'notes in double height');
});

t.test('the euro sign prints in CP858 and windows-1252; CP437 has none, so the test page does not ask for it', async (t) => {
  for (const codePage of ['cp858', 'windows1252'] as const) {
    const job = parseEscPos(renderTestPage({ paperWidth: 58, codePage }, 'Bar', 0, 'UTC'));
    t.ok(job.text.includes('Price: 12,50 €'), codePage);
    t.ok(job.text.includes('Crème brûlée, jalapeño, Würstel'), codePage);
    t.ok(job.text.includes('-'.repeat(32)), '32 columns on 58 mm');
  }
  const beef = (codePage: 'cp858' | 'windows1252') => parseEscPos(renderVoid({ paperWidth: 80, codePage }, heading, { dishName: 'Côte de bœuf', quantity: 1, notes: '' }, 'UTC')).text.find((l) => l.startsWith('VOID 1'));
  t.equal(beef('windows1252'), 'VOID 1 x Côte de bœuf', 'œ is in windows-1252');
  t.equal(beef('cp858'), 'VOID 1 x Côte de b?uf', 'and not in CP858: the printer shows what the code page has');
  t.ok(parseEscPos(renderTestPage({ paperWidth: 80, codePage: 'cp437' }, 'Bar', 0, 'UTC')).text.includes('Prices in the base currency'));
  t.same(parseEscPos(renderVoid({ paperWidth: 80, codePage: 'cp858' }, heading, { dishName: 'Rib-eye', quantity: 1, notes: '' }, 'UTC')).text.filter((l) => l.startsWith('VOID')), ['VOID', 'VOID 1 x Rib-eye']);
});

t.test('bytes a printer would print as garbage fail the parse', async (t) => {
  t.throws(() => parseEscPos(Uint8Array.from([0x1b, 0x74, 0x63])), /ESC t 99/);
  t.throws(() => parseEscPos(Uint8Array.from([0x1b, 0x7f])), /ESC 0x7f/);
  t.throws(() => parseEscPos(Uint8Array.from([0x1d])), /cut short/);
});

t.test('over TCP: a job printed when its sender ends it, acknowledged by closing; unplugged, refused; stopAfter unplugs at once', async (t) => {
  const printer = new PrinterSimulator('cp858');
  const port = await printer.start();
  t.teardown(() => printer.stop());
  const send = (text: string) => new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.from(`${text}\n\x1dV\x00`, 'latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    socket.on('close', (hadError) => { if (!hadError) resolve('closed'); });
  });
  printer.stopAfter(2);
  t.equal(await send('one'), 'closed');
  t.equal(await send('two'), 'closed');
  t.equal(await send('three'), 'ECONNREFUSED');
  t.same(printer.jobs.map((j) => [j.text, j.cuts]), [[['one'], 1], [['two'], 1]]);
  printer.stopAfter(Infinity);
  await printer.start(port);
  t.equal(await send('four'), 'closed');
  t.same((await printer.waitForJobs(3)).map((j) => j.text[0]), ['one', 'two', 'four']);
});
