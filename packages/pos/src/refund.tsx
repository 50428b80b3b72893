import { useState } from 'preact/hooks';
import { direct, newKey, ok, useWrite } from './api.js';
import { type ApprovalHeaders, ManagerApproval, orAskManager } from './manager.js';
import type { Ticket } from './menu.js';
import { money, parseAmount } from './money.js';

type Payment = Ticket['payments'][number];

const cents = (amount: number) => Math.round(amount * 100);

/** What is left to give back of a payment, in cents, as the ticket's decider counts it: what it took and its tip, less refunds. */
export const refundableCents = (p: Payment): number => cents(p.amount) + cents(p.tip) - cents(p.refunded);

export const METHOD_NAMES: Record<string, string> = { cash: 'Cash', credit_card: 'Credit card', debit_card: 'Debit card', lightning: '⚡ Lightning' };

/**
 * Giving back all or part of one payment, with the reason. A manager's own refund goes at once; a
 * waiter's asks for a manager's name and PIN on the spot (the server records who asked and who
 * approved). Straight to the network, never kept in the outbox: money given back must be settled now,
 * in front of the guest. A Lightning payment goes back over Lightning, not from this sheet.
 */
export function RefundSheet(props: { ticket: Ticket; payment: Payment; onDone: () => void; onCancel: () => void }) {
  const { ticket, payment } = props;
  const left = refundableCents(payment);
  const [amountText, setAmountText] = useState((left / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState(false);
  // One key per intent, kept across retries and the manager's approval: a refund is never given twice.
  const [key] = useState(newKey);
  const w = useWrite();
  const amount = parseAmount(amountText.trim());
  const over = amount !== null && cents(amount) > left;
  const refund = (a?: ApprovalHeaders) => ok(direct.POST('/tickets/{id}/refunds', {
    params: { path: { id: ticket.id } }, body: { payment_id: payment.id, amount: amount ?? 0, reason: reason.trim() },
    headers: { 'idempotency-key': key, ...a },
  }));
  const submit = () => w.run(() => orAskManager(() => refund(), () => setApproval(true), props.onDone));
  if (approval) {
    return <ManagerApproval what={`Refund ${money(amount ?? 0)} of a ${METHOD_NAMES[payment.method] ?? payment.method} payment: ${reason.trim()}`} act={async (a) => void (await refund(a))} onDone={props.onDone} onCancel={() => setApproval(false)} />;
  }
  if (payment.method === 'lightning') {
    return (
      <div class="refund-sheet">
        <h3>Refund a Lightning payment</h3>
        <p id="lightning-refund-note">A Lightning payment goes back over Lightning, to an invoice or address the guest gives: the wallet does it, not this screen.</p>
        <div class="actions"><button type="button" class="secondary" onClick={props.onCancel}>Close</button></div>
      </div>
    );
  }
  return (
    <div class="refund-sheet">
      <h3>Refund: {METHOD_NAMES[payment.method] ?? payment.method} {money(payment.amount + payment.tip)}</h3>
      <p class="muted">Left to refund: <strong id="refundable">{money(left / 100)}</strong></p>
      <div class="segmented">
        <button type="button" id="refund-all" class={amount !== null && cents(amount) === left ? 'active' : ''} onClick={() => setAmountText((left / 100).toFixed(2))}>All</button>
        <button type="button" id="refund-part" class={amount !== null && cents(amount) !== left ? 'active' : ''} onClick={() => setAmountText('')}>Part</button>
      </div>
      <label>Amount<input id="refund-amount" inputMode="decimal" value={amountText} onInput={(e) => setAmountText(e.currentTarget.value)} /></label>
      {over && <p class="error" id="refund-over">At most {money(left / 100)} is left of this payment.</p>}
      <label>Reason<input id="refund-reason" value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} placeholder="cold food, charged twice…" /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
        <button type="button" id="refund-confirm" class="danger" disabled={w.busy || amount === null || amount <= 0 || over || !reason.trim()} onClick={() => void submit()}>Refund {money(amount ?? 0)}</button>
      </div>
    </div>
  );
}
