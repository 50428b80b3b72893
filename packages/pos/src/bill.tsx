import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ifNoneMatch, newKey, ok, usePolled, useWrite } from './api.js';
import { type ApprovalHeaders, ManagerApproval, orAskManager } from './manager.js';
import { type OrderLine, type Ticket, dishName } from './menu.js';
import { money } from './money.js';
import { Stepper } from './order.js';
import { GuestLinkSheet } from './guest-link.js';
import { PaySheet } from './pay.js';
import { RefundSheet, refundableCents } from './refund.js';
import { go } from './route.js';

type Split = 'none' | 'even' | 'seats' | 'lines';

/** The order's bills: issue them (whole, even parts, by seat, by lines), take payments, print; once all is paid, close the order whatever the kitchen's state. */
export function BillScreen(props: { orderId: string }) {
  const { orderId } = props;
  const complete = usePolled((etag) => api.GET('/orders/{id}/complete', { params: { path: { id: orderId } }, headers: ifNoneMatch(etag) }), 3_000, [orderId]);
  const ticketsRead = usePolled((etag) => api.GET('/orders/{id}/tickets', { params: { path: { id: orderId }, query: { all: true } }, headers: ifNoneMatch(etag) }), 2_000, [orderId]);
  const [split, setSplit] = useState<Split>('none');
  const [parts, setParts] = useState(2);
  const [groupOf, setGroupOf] = useState<Record<string, number>>({});
  // Lines split between every check (a bottle of wine over three): each check carries its share.
  const [shared, setShared] = useState<string[]>([]);
  // The bill being paid, by id: the sheet shows it as the latest read has it (a payment that landed
  // a moment before the tap, or on another tablet meanwhile, changes what is due).
  const [payingId, setPayingId] = useState<string | null>(null);
  const [reopening, setReopening] = useState<Ticket | null>(null);
  const [refunding, setRefunding] = useState<{ ticket: Ticket; payment: Payment } | null>(null);
  const [linking, setLinking] = useState<Ticket | null>(null);
  const w = useWrite();
  const [issueKey, setIssueKey] = useState(newKey);

  const order = complete.data?.order;
  const seatOf = Object.fromEntries((complete.data?.dishes ?? []).map((l) => [l.id, l.seat]));
  // Oldest first; within one split, its parts in order (1 of 3, 2 of 3…) or its seats (the table's last).
  const place = (t: Ticket) => t.share?.part ?? seatOf[t.lines[0]?.id ?? ''] ?? 99;
  const tickets = [...(ticketsRead.data ?? [])].sort((a, b) => a.created_at.localeCompare(b.created_at) || place(a) - place(b));
  const billed = new Set(tickets.filter((t) => t.status_name !== 'cancelled').flatMap((t) => t.lines.map((l) => l.id)));
  const unbilled = (complete.data?.dishes ?? []).filter((l) => !billed.has(l.id));
  const paying = tickets.find((t) => t.id === payingId) ?? null;
  const allPaid = tickets.some((t) => t.status_name === 'paid') && tickets.every((t) => t.status_name !== 'pending') && unbilled.length === 0;
  const refresh = () => {
    complete.refresh();
    ticketsRead.refresh();
  };
  const run = (what: () => Promise<unknown>, after?: () => void) => w.run(what, () => {
    after?.();
    refresh();
  });
  const issue = () => {
    const own = unbilled.filter((l) => !shared.includes(l.id));
    const used = [...new Set(own.map((l) => groupOf[l.id] ?? 1))];
    // A shared line is on every check: the checks the other lines name, and at least two.
    const last = shared.length ? Math.max(2, ...used) : 0;
    const bills = shared.length ? Array.from({ length: last }, (_, i) => i + 1) : used.sort((a, b) => a - b);
    const groups = bills.map((g) => [...own.filter((l) => (groupOf[l.id] ?? 1) === g).map((l) => l.id), ...unbilled.filter((l) => shared.includes(l.id)).map((l) => l.id)]);
    const body = split === 'even' ? { split, parts } : split === 'lines' ? { split, groups } : { split };
    void run(() => ok(api.POST('/orders/{id}/tickets', { params: { path: { id: orderId } }, body, headers: { 'idempotency-key': issueKey } })), () => setIssueKey(newKey()));
  };
  // One key for the intent to close, kept across retries: a tap repeated after a lost answer closes once.
  const [closeKey] = useState(newKey);
  const closeOrder = () => void run(() => ok(api.POST('/orders/{id}/close', { params: { path: { id: orderId } }, headers: { 'idempotency-key': closeKey } })), () => go('/floor'));

  if (!order) return <main class="bill"><p class="muted">Loading the bill…</p></main>;
  return (
    <main class="bill">
      <header class="order-head">
        <button type="button" class="secondary" onClick={() => go(`/order/${orderId}`)}>← Order</button>
        <h2>Bill {order.number ? `#${order.number}` : ''} <span class="muted">{money(order.total)}</span></h2>
        <span class={`badge status-${order.status}`}>{order.status}</span>
      </header>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      {unbilled.length > 0 && (
        <section class="issue">
          <h3>{unbilled.length} line{unbilled.length === 1 ? '' : 's'} not billed yet</h3>
          <div class="segmented" role="radiogroup">
            {(['none', 'even', 'seats', 'lines'] as const).map((s) => (
              <button type="button" key={s} data-split={s} class={split === s ? 'active' : ''} onClick={() => setSplit(s)}>{{ none: 'Whole', even: 'Even split', seats: 'By seat', lines: 'By lines' }[s]}</button>
            ))}
          </div>
          {split === 'even' && <label>Parts <Stepper value={parts} min={2} max={20} onChange={setParts} /></label>}
          {split === 'lines' && <LineGroups lines={unbilled} groupOf={groupOf} onChange={setGroupOf} shared={shared} onShare={setShared} />}
          <button type="button" id="issue-bill" disabled={w.busy} onClick={issue}>Issue {split === 'none' ? 'the bill' : 'the bills'}</button>
        </section>
      )}
      <section class="tickets">
        {tickets.map((t) => (
          <TicketCard key={t.id} ticket={t} label={labelOf(t, seatOf)} onPay={() => setPayingId(t.id)} onReopen={() => setReopening(t)} onRefund={(p) => setRefunding({ ticket: t, payment: p })}>
            {t.status_name === 'pending' && <button type="button" class="secondary guest-qr-button" onClick={() => setLinking(t)}>Guest QR</button>}
          </TicketCard>
        ))}
      </section>
      {allPaid && ['pending', 'preparing', 'ready'].includes(order.status) && (
        <button type="button" id="complete-order" class="wide" disabled={w.busy} onClick={closeOrder}>Everything is paid: close the order{order.table_id ? ' and free the table' : ''}</button>
      )}
      {linking && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog"><GuestLinkSheet ticket={linking} label={labelOf(linking, seatOf)} onClose={() => setLinking(null)} /></div>
        </div>
      )}
      {reopening && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog">
            <ReopenSheet ticket={reopening} label={labelOf(reopening, seatOf)} onDone={() => { setReopening(null); refresh(); }} />
          </div>
        </div>
      )}
      {refunding && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog">
            <RefundSheet ticket={refunding.ticket} payment={refunding.payment} onDone={() => { setRefunding(null); refresh(); }} onCancel={() => setRefunding(null)} />
          </div>
        </div>
      )}
      {paying && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog">
            <PaySheet ticket={paying} label={labelOf(paying, seatOf)} onDone={() => { setPayingId(null); refresh(); }} />
          </div>
        </div>
      )}
    </main>
  );
}

/** By lines: each line is tapped into bill 1, 2, 3…, or split between every bill ("Split"). */
function LineGroups(props: { lines: OrderLine[]; groupOf: Record<string, number>; onChange: (g: Record<string, number>) => void; shared: string[]; onShare: (s: string[]) => void }) {
  const toggle = (id: string) => props.onShare(props.shared.includes(id) ? props.shared.filter((x) => x !== id) : [...props.shared, id]);
  return (
    <ul class="line-groups">
      {props.lines.map((l) => (
        <li key={l.id} data-group-line={l.id}>
          <span>{l.quantity} × {dishName(l.dish_id)} <Options line={l} /> <small class="muted">{money(l.line_total)}</small></span>
          {props.shared.includes(l.id)
            ? <span class="muted">on every bill</span>
            : <label>Bill <Stepper value={props.groupOf[l.id] ?? 1} min={1} max={9} onChange={(n) => props.onChange({ ...props.groupOf, [l.id]: n })} /></label>}
          <button type="button" class={props.shared.includes(l.id) ? 'chip active' : 'chip'} data-share-line={l.id} aria-pressed={props.shared.includes(l.id)} onClick={() => toggle(l.id)}>Split</button>
        </li>
      ))}
    </ul>
  );
}

/** The options chosen on a line ("Medio, Queso"), as the kitchen and the receipt have them. */
function Options(props: { line: { modifiers: Array<{ name: string }> } }) {
  return props.line.modifiers.length > 0 ? <small class="mods">{props.line.modifiers.map((m) => m.name).join(', ')}</small> : null;
}

/** "Bill 2 of 3" for an even split, "Seat 2" or "Table (shared)" for one by seat, else "Bill". */
function labelOf(t: Ticket, seatOf: Record<string, number | null>): string {
  if (t.share) return `Bill ${t.share.part} of ${t.share.parts}`;
  // The bill says whose it is (as its receipt prints it); bills issued before it said so are read from their lines' seats.
  if (t.bill_for) return t.bill_for;
  const seats = [...new Set(t.lines.map((l) => seatOf[l.id]))];
  if (seats.length !== 1 || seats[0] === undefined) return 'Bill';
  return seats[0] === null ? 'Table' : `Seat ${seats[0]}`;
}

type Payment = Ticket['payments'][number];

/** A bill as printed, its payments and refunds; `names` (the back office's) says who refunded and who approved. */
export function TicketCard(props: { ticket: Ticket; label: string; onPay?: () => void; onReopen: () => void; onRefund: (p: Payment) => void; names?: Record<string, string>; children?: ComponentChildren }) {
  const t = props.ticket;
  return (
    <article class={`ticket-card ${t.status_name}`} data-ticket-id={t.id}>
      <header>
        <strong>{props.label}</strong>
        <span class={`badge ${t.status_name}`}>{t.status_name}</span>
      </header>
      <ul>
        {t.lines.map((l) => (
          <li key={l.id} class={l.voided ? 'voided' : ''} data-bill-line={l.id}>
            <span>{l.quantity} × {dishName(l.dish_id)}{l.share && <small class="share"> ({l.share.part}/{l.share.parts})</small>} <Options line={l} /></span>
            <span>{money(l.line_total)}</span>
          </li>
        ))}
      </ul>
      <dl>
        {t.taxes.map((x) => <div key={x.tax_rate_id}><dt>{x.name} {x.rate} %</dt><dd>{money(x.amount)}</dd></div>)}
        {t.tip > 0 && <div><dt>Tip</dt><dd>{money(t.tip)}</dd></div>}
        <div class="strong"><dt>Total</dt><dd class="ticket-total">{money(t.total)}</dd></div>
        <div><dt>Paid</dt><dd>{money(t.paid)}</dd></div>
        <div class="strong"><dt>Due</dt><dd class="ticket-due">{money(t.due)}</dd></div>
      </dl>
      {t.payments.length > 0 && (
        <ul class="payments">
          {t.payments.map((p) => (
            <li key={p.id} data-method={p.method}>
              {p.method.replace('_', ' ')} {money(p.amount)}{p.tip > 0 ? ` + tip ${money(p.tip)}` : ''}{p.change ? ` (change ${money(p.change)})` : ''}
              {p.sats !== undefined && <small> · {p.sats.toLocaleString('en-US')} sats</small>}
              {p.by_guest && <small class="by-guest"> · paid by guest</small>}
              {p.overpaid ? <small class="flag"> · {money(p.overpaid)} over</small> : null}{p.flag && <small class="flag"> · {p.flag.replace('_', ' ')}</small>}
              {p.refunded > 0 && <small class="refunded"> · {money(p.refunded)} refunded</small>}
              {refundableCents(p) > 0 && <button type="button" class="chip refund-button" data-refund-payment={p.id} onClick={() => props.onRefund(p)}>Refund…</button>}
            </li>
          ))}
        </ul>
      )}
      {t.refunds.length > 0 && (
        <ul class="refunds">
          {t.refunds.map((r) => (
            <li key={r.id} data-refund-id={r.id}>
              <span>Refund {money(r.amount)}: {r.reason}{props.names && ` · by ${props.names[r.by ?? ''] ?? '?'}, approved by ${props.names[r.approved_by ?? ''] ?? '?'}`}</span>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        {t.status_name === 'pending' && props.onPay && <button type="button" class="pay" onClick={props.onPay}>Pay {money(t.due)}</button>}
        {t.status_name === 'paid' && <button type="button" class="secondary reopen-button" onClick={props.onReopen}>Reopen…</button>}
        <button type="button" class="secondary receipt-button" onClick={() => go(`/receipt/${t.id}`)}>Receipt</button>
        {props.children}
      </div>
    </article>
  );
}

/**
 * Reopening a paid check: what was paid is given back and the check cancelled, in one step, with the
 * reason; a waiter needs a manager's name and PIN. The lines then bill again (a split's once every
 * check of it is cancelled or reopened).
 */
export function ReopenSheet(props: { ticket: Ticket; label: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState(false);
  const [key] = useState(newKey);
  const w = useWrite();
  const reopen = (a?: ApprovalHeaders) => ok(api.POST('/tickets/{id}/reopen', {
    params: { path: { id: props.ticket.id } }, body: { reason: reason.trim() }, headers: { 'idempotency-key': key, ...a, ...(a ? { 'x-approval-reason': encodeURIComponent(reason.trim()) } : {}) },
  }));
  const submit = () => w.run(() => orAskManager(() => reopen(), () => setApproval(true), props.onDone));
  if (approval) return <ManagerApproval what={`Reopen ${props.label} (${money(props.ticket.paid)} given back): ${reason.trim()}`} act={async (a) => void (await reopen(a))} onDone={props.onDone} onCancel={() => setApproval(false)} />;
  return (
    <div class="reopen-sheet">
      <h3>Reopen {props.label}</h3>
      <p>{money(props.ticket.paid)} paid is given back and this check cancelled; its lines bill again.</p>
      <label>Reason<input id="reopen-reason" value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} placeholder="forgot the dessert…" /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onDone}>Cancel</button>
        <button type="button" id="reopen-ticket" disabled={w.busy || !reason.trim()} onClick={() => void submit()}>Reopen</button>
      </div>
    </div>
  );
}
