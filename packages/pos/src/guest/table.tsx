import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import createClient from 'openapi-fetch';
import { LOCALE, T, allergen } from './table-text.js';
import '../base.css';
import './guest.css';

// The table's page (/t/{token}, issue 63): the menu served now, and dishes asked of the table's waiter,
// who confirms them on the POS before anything is ordered. No sign-in; the token names the table only.
const api = createClient<paths>({ baseUrl: location.origin });
const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
type Menu = NonNullable<Awaited<ReturnType<typeof loadMenu>>>;
type Asked = { id: string; status: 'open' | 'accepted' | 'declined'; reason: string | null; lines: Array<{ name: string; quantity: number }> };

async function loadMenu() {
  const { data } = await api.GET('/guest/table/{token}', { params: { path: { token } } });
  return data ?? null;
}

function Table() {
  const [menu, setMenu] = useState<Menu | null | undefined>(undefined);
  const [basket, setBasket] = useState<Record<string, number>>({});
  const [asked, setAsked] = useState<Asked | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const reload = () => void loadMenu().then(setMenu);
  useEffect(reload, []);
  // The waiter's answer, read every few seconds while it is awaited.
  useEffect(() => {
    if (!asked || asked.status !== 'open') return;
    const timer = setInterval(async () => {
      const { data } = await api.GET('/guest/table/{token}/requests/{id}', { params: { path: { token, id: asked.id } } });
      if (data && 'lines' in data && data.status !== 'open') setAsked(data);
    }, 3_000);
    return () => clearInterval(timer);
  }, [asked?.id, asked?.status]);
  if (menu === undefined) return <main class="guest" />;
  if (menu === null) return <main class="guest"><p class="notice">{T.gone}</p></main>;
  const money = (n: number) => new Intl.NumberFormat(LOCALE, { style: 'currency', currency: menu.currency || 'USD' }).format(n);
  const dishes = menu.categories.flatMap((c) => c.dishes);
  const chosen = dishes.filter((d) => (basket[d.id] ?? 0) > 0);
  const total = chosen.reduce((sum, d) => sum + d.price * basket[d.id]!, 0);
  const change = (id: string, by: number) => setBasket({ ...basket, [id]: Math.max(0, Math.min(20, (basket[id] ?? 0) + by)) });
  const ask = async () => {
    setBusy(true);
    setError('');
    const { data, error: e } = await api.POST('/guest/table/{token}/requests', { params: { path: { token } }, body: { lines: chosen.map((d) => ({ dish_id: d.id, quantity: basket[d.id]! })) } });
    setBusy(false);
    if (data && 'lines' in data) {
      setAsked(data);
      setBasket({});
    } else {
      setError((e as { message?: string } | undefined)?.message ?? '…');
      reload();
    }
  };
  if (asked) {
    return (
      <main class="guest">
        <h1>{menu.restaurant}</h1>
        <h2>{T.table} {menu.table}</h2>
        <ul class="lines">{asked.lines.map((l) => <li key={l.name}><span>{l.quantity} × {l.name}</span></li>)}</ul>
        <p class={asked.status === 'accepted' ? 'notice paid' : 'notice'} role="status" id="request-status" data-status={asked.status}>
          {asked.status === 'open' ? T.sent : asked.status === 'accepted' ? T.accepted : `${T.declined}: ${asked.reason ?? ''}`}
        </p>
        <button type="button" class="primary" id="ask-more" onClick={() => { setAsked(null); reload(); }}>{T.more}</button>
      </main>
    );
  }
  return (
    <main class="guest table-menu">
      <h1>{menu.restaurant}</h1>
      <h2>{T.table} {menu.table} · {T.menu}</h2>
      {menu.categories.length === 0 ? <p class="notice">{T.none}</p> : menu.categories.map((c) => (
        <section key={c.name}>
          <h2>{c.name}</h2>
          <ul class="lines">
            {c.dishes.map((d) => (
              <li key={d.id} data-dish={d.id}>
                <span class="dish">{d.name}<small>{[d.description, d.allergens.map(allergen).join(', ')].filter(Boolean).join(' · ')}</small></span>
                <b>{money(d.price)}</b>
                <span class="stepper">
                  {(basket[d.id] ?? 0) > 0 && <><button type="button" aria-label={T.less} data-less={d.id} onClick={() => change(d.id, -1)}>−</button><output>{basket[d.id]}</output></>}
                  <button type="button" aria-label={T.add} data-add={d.id} onClick={() => change(d.id, 1)}>+</button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p class="muted">{T.note}</p>
      {chosen.length > 0 && (
        <div class="basket">
          <p class="row total"><span>{T.basket}: {chosen.reduce((n, d) => n + basket[d.id]!, 0)}</span><b>{money(total)}</b></p>
          <button type="button" class="primary" id="ask-waiter" disabled={busy} onClick={() => void ask()}>{T.ask}</button>
        </div>
      )}
      {error ? <p class="notice" role="alert">{error}</p> : null}
    </main>
  );
}

render(<Table />, document.getElementById('app')!);
