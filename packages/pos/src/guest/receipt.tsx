import type { Ask, Bill, Payment } from './guest-api.js';
import { LOCALE, T } from './text.js';

/**
 * The guest's receipt once their invoice is paid, from the payment as the bill recorded it (GET
 * /guest/{token}/payments/{hash}): the restaurant, what it paid for, the amount, tip, sats, the payment
 * hash (short) and when; printable (guest.css's print rules leave the receipt alone on the paper).
 */
export function Receipt(p: { bill: Bill; ask: Ask; hash: string; payment: Payment; money: (n: number) => string; done: () => void }) {
  const { bill, payment, money } = p;
  const live = bill.lines.filter((l) => !l.voided);
  // "My items": the lines the invoice named; the rest of the bill: the lines no guest had taken, while
  // nothing else was paid; otherwise the share in words.
  const lines = payment.line_ids.length ? live.filter((l) => payment.line_ids.includes(l.id))
    : p.ask.share === 'all' && bill.paid === 0 ? live.filter((l) => l.taken === null) : [];
  const what = p.ask.share === 'even' ? T.evenShare(p.ask.guests) : p.ask.share === 'all' && lines.length === 0 ? T.rest : null;
  const at = payment.paid_at ? new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(payment.paid_at)) : '';
  return (
    <main class="guest receipt" id="receipt">
      <h1>{bill.restaurant}</h1>
      <p class="notice paid" role="status">{T.paidDone}</p>
      <h2>{T.receipt}</h2>
      <ul class="lines">
        {lines.map((l) => <li key={l.id}><span>{l.quantity > 1 ? `${l.quantity} × ` : ''}{l.name}</span><b>{money(l.total)}</b></li>)}
        {what ? <li><span>{what}</span></li> : null}
      </ul>
      <p class="row"><span>{T.amount}</span><b>{money(payment.amount)}</b></p>
      <p class="row"><span>{T.tip}</span><b>{money(payment.tip)}</b></p>
      {payment.held > 0 ? <p class="row"><span>{T.held}</span><b>{money(payment.held)}</b></p> : null}
      <p class="row total"><span>{T.paid}</span><b>{money(payment.amount + payment.tip + payment.held)}</b></p>
      <p class="row"><span>Lightning</span><b>{payment.amount_sat.toLocaleString(LOCALE)} sats</b></p>
      <p class="row"><span>{T.payment}</span><code class="hash" title={p.hash}>{p.hash.slice(0, 10)}…{p.hash.slice(-6)}</code></p>
      <p class="row"><span>{T.date}</span><time dateTime={payment.paid_at ?? ''}>{at}</time></p>
      <button class="primary" onClick={() => window.print()}>{T.print} {T.receipt}</button>
      <button class="back" onClick={p.done}>{T.back}</button>
    </main>
  );
}
