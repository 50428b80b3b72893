import t from 'tap';
import { amountLine, clockTime, columnsOf, encoderFor, renderKitchenTicket, renderReceipt, renderTestPage, renderVoid } from '../src/index.js';

t.test('58 mm paper holds 32 characters a line, 80 mm 42; times are the restaurant\'s', async (t) => {
  t.equal(columnsOf(58), 32);
  t.equal(columnsOf(80), 42);
  t.equal(clockTime(Date.UTC(2026, 6, 1, 18, 5), 'Europe/Madrid'), '20:05');
  t.equal(clockTime(Date.UTC(2026, 6, 1, 18, 5), 'America/New_York'), '14:05');
});

t.test('every piece of paper starts by resetting the printer and choosing its code page, and ends cut', async (t) => {
  const start = Buffer.from(encoderFor({ paperWidth: 80, codePage: 'cp858' }).line('x').encode());
  t.same([...start.subarray(0, 2)], [0x1b, 0x40], 'ESC @');
  t.ok(start.includes(Buffer.from([0x1b, 0x74, 19])), 'ESC t 19: CP858');
  const ticket = Buffer.from(renderKitchenTicket({ paperWidth: 58, codePage: 'windows1252' }, { tableName: null, waiter: 'Ana', stationName: 'Bar', at: 0 }, [{ dishName: 'Mojito', notes: '' }], 'UTC'));
  t.ok(ticket.includes(Buffer.from([0x1b, 0x74, 16])), 'ESC t 16: windows-1252');
  t.ok(ticket.includes(Buffer.from('Takeaway')), 'no table: a takeaway');
  t.ok(ticket.includes(Buffer.from('1 x Mojito')), 'one portion when the line says none');
  t.same([...ticket.subarray(-4)], [0x1d, 0x56, 0x00, 0x0a], 'GS V 0: cut (the library feeds a line after it)');
});

t.test('a void and a test page say what they are', async (t) => {
  const heading = { tableName: 'T4', orderNumber: 7, waiter: 'Ana', stationName: 'Grill', at: 0 };
  const voided = Buffer.from(renderVoid({ paperWidth: 80, codePage: 'cp437' }, heading, { dishName: 'Rib-eye', quantity: 2, seat: 3, notes: '' }, 'UTC')).toString('latin1');
  t.match(voided, /VOID[\s\S]*T4[\s\S]*Order #7[\s\S]*VOID 2 x Rib-eye[\s\S]*Seat 3/);
  const page = Buffer.from(renderTestPage({ paperWidth: 58, codePage: 'cp858' }, 'Pass', 0, 'UTC')).toString('latin1');
  t.match(page, /Test print[\s\S]*Pass[\s\S]*58 mm/);
  t.ok(page.includes('12,50 \u00d5'), 'the euro sign as CP858 writes it (0xD5)');
});

t.test('a receipt\'s rows: amounts aligned to the paper\'s right edge, long labels shortened, totals bold', async (t) => {
  t.equal(amountLine('Taco al pastor', 5100, 32), `Taco al pastor${' '.repeat(13)}51.00`);
  t.equal(amountLine('Refund: the guest found a hair in the soup', -1250, 32), 'Refund: the guest found … -12.50', 'a space always before the amount');
  const paper = Buffer.from(renderReceipt({ paperWidth: 80, codePage: 'cp858' }, [
    { kind: 'title', text: 'La Esquina' }, { kind: 'center', text: '2026-11-28 20:15' }, { kind: 'rule' }, { kind: 'text', text: '  + extra queso' },
    { kind: 'amount', label: 'TOTAL', cents: 8100, strong: true },
  ]));
  const text = paper.toString('latin1');
  t.match(text, /La Esquina[\s\S]*2026-11-28 20:15[\s\S]*-{42}\n  \+ extra queso\n/);
  t.ok(paper.includes(Buffer.from(`\x1bE\x01TOTAL${' '.repeat(32)}81.00`, 'latin1')), 'TOTAL in bold across 42 columns');
});

t.test('a link under its QR is cut into whole lines of the paper\'s width, never wrapped at a hyphen', async (t) => {
  // A bill's guest link as seen in CI: the encoder's own wrapping broke it after "Rj-", the text receipt at 42.
  const link = 'http://127.0.0.1:32933/g/TPsItqt3Rj-FT7atRkhKDe6YYTt-ECy_YXaH4aADz_I';
  for (const [paperWidth, columns] of [[80, 42], [58, 32]] as const) {
    const text = Buffer.from(renderReceipt({ paperWidth, codePage: 'cp858' }, [{ kind: 'qr', text: link }])).toString('latin1');
    // After the QR's print command (GS ( k … 1Q0): the lines as printed, their code page and alignment commands left out.
    const lines = text.split('1Q0')[1]!.split('\n').map((l) => l.replace(/\x1b[at][\x00-\x20]/g, '').trim()).filter((l) => /^[\w:/.-]+$/.test(l));
    t.same(lines, link.match(new RegExp(`.{1,${columns}}`, 'g')), `${paperWidth} mm: the link in ${columns}-character lines`);
  }
});
