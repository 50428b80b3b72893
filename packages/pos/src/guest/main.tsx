import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { type Ask, type Bill, type Invoice, type Payment, api, loadBill, token } from './guest-api.js';
import { Receipt } from './receipt.js';
import { LOCALE, T } from './text.js';
import '../base.css';
import './guest.css';

// The guest page (/g/{token}, issue 63): a bill seen and paid from the guest's phone, no sign-in.
const TIPS = [0, 10, 15, 20];

function Guest() {
  const [bill, setBill] = useState<Bill | null | undefined>(undefined);
  const [share, setShare] = useState<'all' | 'even' | 'lines'>('all');
  const [guests, setGuests] = useState(2);
  const [mine, setMine] = useState<string[]>([]);
  const [tip, setTip] = useState<number | 'own'>(10);
  const [ownTip, setOwnTip] = useState('');
  const [invoice, setInvoice] = useState<{ invoice: Invoice; ask: Ask; bill: Bill } | null>(null);
  const [error, setError] = useState('');
  // Read again when "my items" is chosen (the lines others took since), not polled: the guests of a
  // restaurant often share one address, and its 120 requests a minute.
  const reload = () => void loadBill().then((b) => {
    setBill(b);
    if (b) setMine((m) => m.filter((id) => b.lines.some((l) => l.id === id && l.taken === null)));
  });
  useEffect(reload, []);
  // A receipt has its own address (#receipt/<hash>/<share>/<guests>): opened again, reloaded or printed
  // later, it shows that payment's receipt while the link holds (30 minutes after the bill is paid).
  const [kept, setKept] = useState<{ hash: string; ask: Ask; payment: Payment } | null>(null);
  useEffect(() => {
    const m = /^#receipt\/([0-9a-f]{64})\/(all|even|lines)\/(\d{1,2})$/.exec(location.hash);
    const share = (['all', 'even', 'lines'] as const).find((x) => x === m?.[2]);
    if (!m || !share) return;
    const hash = m[1]!;
    void api.GET('/guest/{token}/payments/{hash}', { params: { path: { token, hash } } })
      .then(({ data }) => data?.status === 'paid' && setKept({ hash, ask: { share, guests: Number(m[3]), lineIds: data.line_ids }, payment: data }));
  }, []);
  if (bill === undefined) return <main class="guest" />;
  if (bill === null) return <main class="guest"><p class="notice">{T.gone}</p></main>;
  const money = (n: number) => new Intl.NumberFormat(LOCALE, { style: 'currency', currency: bill.currency }).format(n);
  if (kept) return <Receipt bill={bill} {...kept} money={money} done={() => { forgetReceipt(); setKept(null); }} />;
  const pay = async () => {
    setError('');
    // A tip of one's own goes as typed: the server checks it (zero or more, to the cent, at most the bill).
    const own = Number(ownTip.replace(',', '.'));
    const tipped = tip === 'own' ? { tip: own } : { tip_percent: tip };
    // Said here in the guest's words (the server's refusal is in English); the server still decides.
    const capCents = Math.round((bill.total - bill.tip) * 100);
    if (tip === 'own' && Math.round(own * 100) > capCents) return setError(T.tipTooHigh(money(capCents / 100)));
    const body = { share, ...tipped, ...(share === 'even' ? { guests } : {}), ...(share === 'lines' ? { line_ids: mine } : {}) };
    const { data, error: e } = await api.POST('/guest/{token}/lightning', { params: { path: { token } }, body });
    if (data && 'invoice' in data) setInvoice({ invoice: data, ask: { share, guests, lineIds: mine }, bill });
    else setError(errorText(e));
    if (!data) reload(); // a line taken meanwhile (409) is then shown so
  };
  if (invoice) return <Pay {...invoice} money={money} done={() => { setInvoice(null); reload(); }} />;
  const open = bill.status === 'pending';
  return (
    <main class="guest">
      <h1>{bill.restaurant}</h1>
      <h2>{T.bill}</h2>
      <ul class="lines">
        {bill.lines.filter((l) => !l.voided).map((l) => {
          // A line another guest paid or is paying (their "my items") is marked, and cannot be chosen.
          const mark = l.taken ? <small class={`taken ${l.taken}`}>{l.taken === 'paid' ? T.linePaid : T.linePaying}</small> : null;
          const name = <>{l.quantity > 1 ? `${l.quantity} × ` : ''}{l.name}{l.options.length ? <small> ({l.options.join(', ')})</small> : null}{mark}</>;
          return (
            <li key={l.id} data-taken={l.taken ?? undefined}>
              {share === 'lines' && open
                ? <label><input type="checkbox" disabled={l.taken !== null} checked={mine.includes(l.id)} onChange={() => setMine(mine.includes(l.id) ? mine.filter((m) => m !== l.id) : [...mine, l.id])} />{name}</label>
                : <span>{name}</span>}
              <b>{money(l.total)}</b>
            </li>
          );
        })}
      </ul>
      {bill.service_charge ? <p class="row"><span>{T.service}</span><b>{money(bill.service_charge)}</b></p> : null}
      {bill.taxes.map((x) => <p class="row" key={x.name}><span>{x.name} {x.rate}%</span><b>{money(x.amount)}</b></p>)}
      <p class="row total"><span>{T.total}</span><b>{money(bill.total)}</b></p>
      <p class="row"><span>{T.paid}</span><b>{money(bill.paid)}</b></p>
      <p class="row total"><span>{T.remaining}</span><b>{money(bill.remaining)}</b></p>
      {!open ? <p class="notice">{bill.status === 'paid' ? T.closed : T.cancelled}</p> : (
        <section>
          <div class="choice">
            {(['all', 'even', 'lines'] as const).map((s) => <button key={s} class={share === s ? 'on' : ''} data-share={s} onClick={() => { setShare(s); if (s === 'lines') reload(); }}>{s === 'all' ? T.all : s === 'even' ? T.even : T.mine}</button>)}
          </div>
          {share === 'even' ? <label class="row">{T.guests} <input type="number" min={2} max={30} value={guests} onInput={(e) => setGuests(Number(e.currentTarget.value))} /></label> : null}
          <div class="choice"><span>{T.tip}</span>{TIPS.map((p) => <button key={p} class={tip === p ? 'on' : ''} data-tip={p} onClick={() => setTip(p)}>{p}%</button>)}
            <button class={tip === 'own' ? 'on' : ''} data-tip="own" onClick={() => setTip('own')}>{T.own}</button></div>
          {tip === 'own' ? <label class="row">{T.ownTip} ({bill.currency}) <input id="own-tip" type="text" inputMode="decimal" autoComplete="off" placeholder="0.00" value={ownTip} onInput={(e) => { setOwnTip(e.currentTarget.value); setError(''); }} /></label> : null}
          <button class="primary" disabled={(share === 'lines' && mine.length === 0) || (tip === 'own' && !/^\d+([.,]\d{0,2})?$/.test(ownTip.trim()))} onClick={() => void pay()}>{T.pay}</button>
          {error ? <p class="notice" role="alert">{error}</p> : null}
        </section>
      )}
    </main>
  );
}

/** The API's refusal in the guest's words where it names a field (the tip), else its message. */
function errorText(e: unknown): string {
  const body = e as { message?: string; errors?: Array<{ field: string; message: string }> } | undefined;
  if (body?.errors?.length) return body.errors.map((x) => `${x.field === 'tip' ? T.tip : x.field}: ${x.message}`).join('; ');
  return body?.message ?? '…';
}

/** Back from a receipt: the page's address is the bill's again. */
const forgetReceipt = () => history.replaceState(null, '', location.pathname);

function Pay(p: { bill: Bill; invoice: Invoice; ask: Ask; money: (n: number) => string; done: () => void }) {
  const { invoice } = p;
  const [qr, setQr] = useState('');
  const [now, setNow] = useState(Date.now());
  const [paid, setPaid] = useState<Payment | null>(null);
  // Withdrawn (the bill paid meanwhile by another guest or the waiter) or run out: its QR is taken away.
  const [gone, setGone] = useState<'withdrawn' | 'expired' | null>(null);
  useEffect(() => void QRCode.toDataURL(`lightning:${invoice.invoice}`.toUpperCase(), { margin: 1, width: 320, errorCorrectionLevel: 'M' }).then(setQr), [invoice.invoice]);
  useEffect(() => {
    const timer = setInterval(async () => {
      setNow(Date.now());
      const { data } = await api.GET('/guest/{token}/payments/{hash}', { params: { path: { token, hash: invoice.payment_hash } } });
      if (data?.status === 'paid') {
        setPaid(data);
        history.replaceState(null, '', `#receipt/${invoice.payment_hash}/${p.ask.share}/${p.ask.guests}`);
      }
      else if (data?.status === 'withdrawn' || data?.status === 'expired') setGone(data.status);
    }, 2_000);
    return () => clearInterval(timer);
  }, [invoice.payment_hash]);
  const left = Math.max(0, Math.floor((Date.parse(invoice.expires_at) - now) / 1000));
  if (paid) return <Receipt bill={p.bill} ask={p.ask} hash={invoice.payment_hash} payment={paid} money={p.money} done={() => { forgetReceipt(); p.done(); }} />;
  if (gone) return <main class="guest"><h1>{p.bill.restaurant}</h1><p class="notice" role="status" id="invoice-gone" data-status={gone}>{T[gone]}</p><button class="back" onClick={p.done}>{T.back}</button></main>;
  return (
    <main class="guest">
      <h1>{p.bill.restaurant}</h1>
      <p class="row total"><span>{T.pay}</span><b>{p.money(invoice.amount)} + {T.tip} {p.money(invoice.tip)}</b></p>
      <p class="sats"><b>{invoice.amount_sat.toLocaleString(LOCALE)} sats</b> · {T.expires} {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}</p>
      {qr ? <img class="qr" src={qr} alt="QR" /> : null}
      <a class="primary" href={`lightning:${invoice.invoice}`}>{T.payNow}</a>
      <p class="invoice">{invoice.invoice}</p>
      <button class="back" onClick={p.done}>{T.back}</button>
    </main>
  );
}

render(<Guest />, document.getElementById('app')!);
