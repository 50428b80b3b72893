import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, accepted, api, ifNoneMatch, newKey, ok, online, usePolled, useSignal, useWrite } from './api.js';
import type { paths } from '@comanda/client';
import type { Ticket } from './menu.js';
import { money, parseAmount, sats } from './money.js';
import { Keypad } from './pin-pad.js';

type Method = 'cash' | 'card' | 'lightning';
type Checkout = paths['/tickets/{id}/lightning']['post']['responses'][201]['content']['application/json'];

const TIPS = [0, 10, 15, 20];
const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * What a guest is likely to hand over for `due`: the exact amount, then the next round amounts above
 * it (the next 10, 20, 50, 100, 200, 500), four at most, each once.
 */
export function quickCash(due: number): number[] {
  const round = [10, 20, 50, 100, 200, 500].map((step) => Math.ceil(due / step) * step).filter((n) => n > due);
  return [due, ...new Set(round)].slice(0, 5);
}

/**
 * Taking a payment on one bill. The Idempotency-Key is made when the sheet opens and kept until the
 * payment is answered: a tap again after a lost answer is the same payment, never a second one.
 */
export function PaySheet(props: { ticket: Ticket; label: string; onDone: () => void }) {
  const t = props.ticket;
  const [method, setMethod] = useState<Method>('cash');
  const [amountText, setAmountText] = useState(String(t.due));
  // The amount follows what is due (the bill as the latest read has it) until the person types one.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) setAmountText(String(t.due));
  }, [t.due]);
  const [tendered, setTendered] = useState('');
  const [tipPercent, setTipPercent] = useState<number | null>(0);
  const [tipText, setTipText] = useState('');
  const [card, setCard] = useState<'credit_card' | 'debit_card'>('credit_card');
  const [key, setKey] = useState(newKey);
  const [change, setChange] = useState<number | null>(null);
  const [checkout, setCheckout] = useState<Checkout | null>(null);

  const amount = parseAmount(amountText);
  const tip = tipPercent === null ? parseAmount(tipText) ?? 0 : cents(((amount ?? 0) * tipPercent) / 100);
  const given = parseAmount(tendered);
  // Cash covers the amount and the tip; what is left is the change.
  const owed = cents((amount ?? 0) + tip);
  const keepChange = () => {
    setTipPercent(null);
    setTipText(String(cents((given ?? 0) - (amount ?? 0))));
  };
  const w = useWrite();
  // Cash is kept on the tablet while offline; a card or an invoice needs the network there and then.
  const cut = !useSignal(online) && method !== 'cash';
  const run = (what: () => Promise<void>) => w.run(what, () => setKey(newKey()));
  const pay = () => run(async () => {
    const body = method === 'cash'
      ? { method: 'cash' as const, amount: amount ?? 0, ...(tip > 0 ? { tip } : {}), ...(given !== null ? { tendered: given } : {}) }
      : { method: card, amount: amount ?? 0, tip };
    const answer = await ok(api.POST('/tickets/{id}/payments', { params: { path: { id: t.id } }, body, headers: { 'idempotency-key': key } }));
    if (method === 'cash') setChange(accepted(answer) ? cents((given ?? owed) - owed) : answer.change);
    else props.onDone();
  });
  const invoice = () => run(async () => {
    const answer = await ok(api.POST('/tickets/{id}/lightning', { params: { path: { id: t.id } }, body: { tip, ...(amount !== null && amount !== t.due ? { amount } : {}) }, headers: { 'idempotency-key': key } }));
    // A 202 carries no invoice: the same key (kept, as after any failure) answers it in full on the next tap.
    if (accepted(answer)) throw new ApiError(202, 'The invoice is recorded but not ready to show yet: tap again');
    setCheckout(answer);
  });

  if (change !== null) {
    return (
      <div class="pay-sheet">
        <h3>Cash taken</h3>
        <p class="big" id="change">Change {money(change)}</p>
        <div class="actions"><button type="button" id="pay-done" onClick={props.onDone}>Done</button></div>
      </div>
    );
  }
  if (checkout) return <LightningCheckout ticketId={t.id} paidBefore={t.paid} checkout={checkout} onAgain={() => setCheckout(null)} onDone={props.onDone} />;
  return (
    <div class="pay-sheet">
      <h3>Pay: {props.label} <span class="muted">due {money(t.due)}</span></h3>
      <div class="segmented">
        {(['cash', 'card', 'lightning'] as const).map((m) => <button type="button" key={m} data-method={m} class={method === m ? 'active' : ''} onClick={() => setMethod(m)}>{{ cash: 'Cash', card: 'Card', lightning: '⚡ Lightning' }[m]}</button>)}
      </div>
      <label>Amount<input id="pay-amount" inputMode="decimal" value={amountText} onInput={(e) => { typed.current = true; setAmountText(e.currentTarget.value); }} /></label>
      {/* A tip on every method, chosen first: cash then covers it from what is handed over. */}
      <div class="segmented tips">
        {TIPS.map((p) => <button type="button" key={p} data-tip={p} class={tipPercent === p ? 'active' : ''} onClick={() => setTipPercent(p)}>{p === 0 ? 'No tip' : `${p} %`}</button>)}
        <button type="button" data-tip="other" class={tipPercent === null ? 'active' : ''} onClick={() => setTipPercent(null)}>Other</button>
      </div>
      {tipPercent === null && <label>Tip<input id="tip-amount" inputMode="decimal" value={tipText} onInput={(e) => setTipText(e.currentTarget.value)} /></label>}
      <p class="muted" id="tip-line">Tip {money(tip)} · charged {money(owed)}</p>
      {method === 'cash' && (
        <>
          <div class="quick-cash">
            {quickCash(owed).map((n, i) => (
              <button type="button" key={n} data-cash={i === 0 ? 'exact' : String(n)} class={given === n ? 'active' : ''} onClick={() => setTendered(String(n))}>{i === 0 ? `Exact ${money(n)}` : money(n)}</button>
            ))}
          </div>
          <div class="amount-display">Tendered <strong id="tendered">{tendered ? money(given ?? 0) : '—'}</strong>
            {given !== null && amount !== null && given >= owed && <span id="cash-change"> · change {money(cents(given - owed))}</span>}
          </div>
          <Keypad value={tendered} onChange={setTendered} decimal />
          {given !== null && amount !== null && given > amount && <button type="button" class="secondary" id="change-as-tip" onClick={keepChange}>Keep the change as tip</button>}
        </>
      )}
      {method === 'card' && (
        <div class="segmented">
          <button type="button" class={card === 'credit_card' ? 'active' : ''} onClick={() => setCard('credit_card')}>Credit</button>
          <button type="button" class={card === 'debit_card' ? 'active' : ''} onClick={() => setCard('debit_card')}>Debit</button>
        </div>
      )}
      {cut && <p class="error" id="needs-network">{method === 'card' ? 'Card' : 'Lightning'} needs the network, which is away: take cash, or wait until it is back.</p>}
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onDone}>Cancel</button>
        {method === 'lightning'
          ? <button type="button" id="show-invoice" disabled={cut || w.busy || amount === null} onClick={() => void invoice()}>Show the QR</button>
          : <button type="button" id="take-payment" disabled={cut || w.busy || amount === null || amount <= 0 || (method === 'cash' && given !== null && given < owed)} onClick={() => void pay()}>Take {money(owed)}</button>}
      </div>
    </div>
  );
}

/** The invoice as a QR code, in sats and in the base currency at the locked rate, until paid or expired. */
function LightningCheckout(props: { ticketId: string; paidBefore: number; checkout: Checkout; onAgain: () => void; onDone: () => void }) {
  const c = props.checkout;
  const [qr, setQr] = useState('');
  const [now, setNow] = useState(Date.now());
  const ticket = usePolled((etag) => api.GET('/tickets/{id}', { params: { path: { id: props.ticketId } }, headers: ifNoneMatch(etag) }), 1_000, [props.ticketId]).data;
  useEffect(() => void QRCode.toDataURL(`lightning:${c.invoice}`.toUpperCase(), { margin: 1, width: 320, errorCorrectionLevel: 'M' }).then(setQr), [c.invoice]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const received = ticket?.payments.find((p) => p.payment_hash === c.payment_hash);
  const left = Math.max(0, Math.round((Date.parse(c.expires_at) - now) / 1000));
  return (
    <div class="lightning">
      {received ? (
        <>
          <h3 class="paid" id="lightning-paid">Paid ⚡ {sats(received.sats ?? 0)}</h3>
          <p>{money(received.amount)}{received.tip > 0 ? ` + tip ${money(received.tip)}` : ''}{received.overpaid ? ` · ${money(received.overpaid)} over` : ''}{received.flag ? ` · ${received.flag.replace('_', ' ')}` : ''}</p>
          {ticket && ticket.due > 0 && <p class="error">Still due: {money(ticket.due)}</p>}
          <div class="actions"><button type="button" id="pay-done" onClick={props.onDone}>Done</button></div>
        </>
      ) : (
        <>
          <h3>Scan to pay</h3>
          {qr && <img class="qr" id="invoice-qr" src={qr} alt="Lightning invoice QR code" data-invoice={c.invoice} />}
          <p class="big" id="invoice-sats">{sats(c.amount_sat)}</p>
          <InvoiceText invoice={c.invoice} />
          <p>{money(cents(c.fiat_due + c.tip))} at {c.rate.toLocaleString('en-US')} {c.currency}/BTC{c.tip > 0 ? ` (tip ${money(c.tip)})` : ''}</p>
          <p class={left < 30 ? 'countdown warn' : 'countdown'} id="invoice-countdown">{left > 0 ? `Expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'Expired'}</p>
          <div class="actions">
            <button type="button" class="secondary" onClick={props.onDone}>Close</button>
            {left === 0 && <button type="button" onClick={props.onAgain}>New invoice</button>}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * The invoice as text: copied for a wallet elsewhere, or opened through a `lightning:` link by a
 * wallet on this same phone or tablet (a QR cannot be scanned by the device that shows it).
 */
function InvoiceText(props: { invoice: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.invoice);
      setCopied(true);
    } catch {
      // No clipboard (plain HTTP on a LAN): the text is selected for the person to copy.
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('invoice-text')!);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    }
  };
  return (
    <>
      <div class="invoice-text"><code id="invoice-text">{props.invoice}</code></div>
      <div class="actions center">
        <button type="button" class="secondary" id="copy-invoice" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</button>
        <a class="wallet-link" id="wallet-link" href={`lightning:${props.invoice}`}>Open in wallet</a>
      </div>
    </>
  );
}
