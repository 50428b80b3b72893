import { PAYMENT_METHODS, TICKET_STATUS_NAMES, billedLineCents, lineTotal, notFound, percentOf } from '@comanda/domain';
import { DISHES, TABLES, TICKETS, type DishView, type TableView, type TicketView } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { Config } from '@comanda/config';
import { type ReceiptRow, amountLine, receiptAmount as amount } from '@comanda/printing';
import { billFor, ticketFiguresOf, ticketTaxesOf } from './views.js';

/** An 80 mm thermal printer prints 42 columns of its standard font. */
export const RECEIPT_WIDTH = 42;

export interface ReceiptData {
  restaurant: string;
  ticket: TicketView;
  dishNames: Record<string, string>;
  tableName: string | null;
  timezone: string;
  /** The last line (COMANDA_RECEIPT_FOOTER). */
  footer: string;
  /** The bill's guest link (issue 63), printed as a QR on a bill still to pay; absent on receipts. */
  guestUrl?: string | null;
}

function when(ms: number, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** A bill as its receipt shows it, from the read models (404 for an unknown bill). */
export async function receiptData(readStore: ReadStore, config: Pick<Config, 'restaurantName' | 'receiptFooter' | 'timezone'>, ticketId: string): Promise<ReceiptData> {
  const ticket = await readStore.collection<TicketView>(TICKETS).get(ticketId);
  if (!ticket) throw notFound();
  const dishes = await readStore.collection<DishView>(DISHES).find({ _id: { $in: ticket.lines.map((l) => l.dishId) } });
  const table = ticket.table_id ? await readStore.collection<TableView>(TABLES).get(ticket.table_id) : null;
  return {
    restaurant: config.restaurantName, footer: config.receiptFooter, ticket, tableName: table?.name ?? null, timezone: config.timezone,
    dishNames: Object.fromEntries(dishes.map((d) => [d.id, d.name])),
  };
}

/** What a receipt says, in order; the text, HTML and paper (ESC/POS) renderings only lay it out. */
export function receiptRows(d: ReceiptData): ReceiptRow[] {
  const t = d.ticket;
  const f = ticketFiguresOf(t);
  // A bill of a split by seats says whose it is, so each guest picks up the right one.
  const forWhom = billFor(t);
  const out: ReceiptRow[] = [
    { kind: 'title', text: d.restaurant },
    { kind: 'center', text: when(t.issued_at, d.timezone) },
    { kind: 'text', text: `${t.order_number ? `Order #${t.order_number}  ` : ''}Ticket ${t.id.slice(0, 8)}${d.tableName ? `  Table ${d.tableName}` : ''}` },
    { kind: 'text', text: `Waiter ${t.waiter}` },
    ...(forWhom ? [{ kind: 'text' as const, text: forWhom }] : []),
    { kind: 'rule' },
  ];
  for (const l of t.lines) {
    const name = d.dishNames[l.dishId] ?? 'Dish';
    const label = (l.quantity ?? 1) > 1 ? `${l.quantity} x ${name}` : name;
    // An item split between checks prints this check's part of it, its discount already shared.
    if (l.share) out.push({ kind: 'amount', label: `${label} (${l.share.part}/${l.share.parts})`, cents: billedLineCents(l) });
    else out.push({ kind: 'amount', label, cents: lineTotal(l) });
    if (l.discountCents && !l.share) out.push({ kind: 'amount', label: '  Discount', cents: -l.discountCents });
    // A price level's price says which: the guest reads why the beer is 39, not 55.
    if (l.priceLevel) out.push({ kind: 'text', text: `  ${l.priceLevel} price` });
    for (const m of l.modifiers ?? []) out.push({ kind: 'text', text: `  + ${m.name}${m.priceDeltaCents ? ` ${amount(m.priceDeltaCents)}` : ''}` });
    if (l.notes) out.push({ kind: 'text', text: `  ${l.notes}` });
    const voided = t.voided.find((v) => v.line_id === l.lineId);
    if (voided) out.push({ kind: 'amount', label: `  VOID: ${voided.reason}`, cents: -voided.amount_cents });
  }
  out.push({ kind: 'rule' });
  if (t.share) out.push({ kind: 'text', text: `Split evenly: part ${t.share.part} of ${t.share.parts}` });
  const tax = ticketTaxesOf(t);
  out.push({ kind: 'amount', label: 'Subtotal', cents: f.subtotal - tax.added - tax.serviceCharge });
  const charge = t.service_charge;
  if (charge && tax.serviceCharge) out.push({ kind: 'amount', label: `Service charge ${charge.rateBp / 100}%${charge.reason === 'party' ? ` (party of ${charge.partySize})` : ''}`, cents: tax.serviceCharge });
  const included = tax.added === 0 ? ' incl.' : '';
  for (const x of tax.taxes) out.push({ kind: 'amount', label: `${x.name} ${percentOf(x.ratePpm)}%${included}`, cents: x.amountCents });
  if (f.tip) out.push({ kind: 'amount', label: 'Tip', cents: f.tip });
  out.push({ kind: 'amount', label: 'TOTAL', cents: f.total, strong: true });
  if (t.payments.length || t.refunds.length) out.push({ kind: 'rule' });
  for (const p of t.payments) {
    out.push({ kind: 'amount', label: PAYMENT_METHODS[p.method].name, cents: p.amount_cents + p.tip_cents + p.overpaid_cents });
    if (p.details.method === 'cash') {
      out.push({ kind: 'amount', label: '  Tendered', cents: p.details.tenderedCents });
      out.push({ kind: 'amount', label: '  Change', cents: p.details.changeCents });
    }
    if (p.details.method === 'lightning') out.push({ kind: 'text', text: `  ${p.details.sats.toLocaleString('en')} sats` });
  }
  for (const r of t.refunds) out.push({ kind: 'amount', label: `Refund: ${r.reason}`, cents: -r.amount_cents });
  if (f.due) out.push({ kind: 'amount', label: 'DUE', cents: f.due, strong: true });
  if (d.guestUrl) out.push({ kind: 'rule' }, { kind: 'center', text: 'Pay from your phone: scan or open' }, { kind: 'qr', text: d.guestUrl });
  out.push({ kind: 'rule' }, { kind: 'center', text: TICKET_STATUS_NAMES[t.status].toUpperCase() }, { kind: 'center', text: d.footer });
  return out;
}

const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
const center = (text: string) => {
  const s = fit(text, RECEIPT_WIDTH);
  return ' '.repeat(Math.floor((RECEIPT_WIDTH - s.length) / 2)) + s;
};

/** Plain text, no line longer than 42 characters. */
export function receiptText(d: ReceiptData): string {
  const lines = receiptRows(d).map((row) => {
    switch (row.kind) {
      case 'title':
      case 'center':
        return center(row.text!);
      case 'rule':
        return '-'.repeat(RECEIPT_WIDTH);
      case 'text':
        return fit(row.text!, RECEIPT_WIDTH);
      case 'amount':
        return amountLine(row.label, row.cents, RECEIPT_WIDTH);
      case 'qr':
        // A link is longer than a line: it wraps whole rather than being cut short.
        return row.text.match(new RegExp(`.{1,${RECEIPT_WIDTH}}`, 'g'))!.join('\n');
    }
  });
  return `${lines.join('\n')}\n`;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The same receipt as a small self-contained page (for e-mail or a screen). */
export function receiptHtml(d: ReceiptData): string {
  const body = receiptRows(d).map((row) => {
    switch (row.kind) {
      case 'title':
        return `<h1>${escape(row.text!)}</h1>`;
      case 'center':
        return `<p class="c">${escape(row.text!)}</p>`;
      case 'rule':
        return '<hr>';
      case 'text':
        return `<p>${escape(row.text!)}</p>`;
      case 'amount': {
        const cells = `<span>${escape(row.label)}</span><span>${amount(row.cents)}</span>`;
        return `<p class="a${row.strong ? ' s' : ''}">${cells}</p>`;
      }
      case 'qr':
        return `<p class="c"><a href="${escape(row.text)}">${escape(row.text)}</a></p>`;
    }
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(d.restaurant)} – ticket ${escape(d.ticket.id.slice(0, 8))}</title>
<style>body{font-family:monospace;max-width:42ch;margin:1em auto}h1{font-size:1.2em;text-align:center}.c{text-align:center}.a{display:flex;justify-content:space-between}.s{font-weight:bold}p{margin:.2em 0}a{word-break:break-all}</style>
</head><body>
${body.join('\n')}
</body></html>
`;
}
