import { useEffect, useState } from 'preact/hooks';
import { api, ifNoneMatch, newKey, ok, usePolled, useWrite } from '../api.js';
import { type Dish, setDishes, stockNote } from '../menu.js';

type Stock = { sold_out: true } | { sold_out: false } | { remaining: number };

/**
 * The manager's "86" sheet (managers and admins: a tile of the back office, office/office.tsx): every dish with
 * "86 now", a count of portions left, and "Back on sale". The server records who did each (GET /audit).
 */
export function SoldOutSheet() {
  const dishes = usePolled((etag) => api.GET('/dishes', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 3_000);
  const w = useWrite();
  const [counts, setCounts] = useState<Record<string, string>>({});
  const set = (d: Dish, body: Stock) => w.run(async () => {
    await ok(api.PUT('/dishes/{id}/stock', { params: { path: { id: d.id } }, body, headers: { 'idempotency-key': newKey() } }));
  }, dishes.refresh);
  const list = dishes.data ?? [];
  useEffect(() => void (dishes.data && setDishes(dishes.data)), [dishes.data]);
  return (
    <main class="sold-out-sheet">
      <h2>Sold out (86)</h2>
      <p class="muted">A dish 86ed or counted is back on sale at the next day's start, or when you say so.</p>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <ul class="stock-list">
        {list.map((d) => {
          const count = counts[d.id] ?? '';
          const n = Number(count);
          return (
            <li key={d.id} data-stock-dish={d.id} class={d.sold_out ? 'sold-out' : ''}>
              <span class="stock-name">{d.name}</span>
              <span class="stock-state">{stockNote(d) || 'on sale'}</span>
              <button type="button" class="danger" data-action="86" disabled={w.busy || d.sold_out} onClick={() => set(d, { sold_out: true })}>86 now</button>
              <input type="number" inputMode="numeric" min={0} aria-label={`Portions left of ${d.name}`} placeholder="count" value={count}
                onInput={(e) => setCounts({ ...counts, [d.id]: e.currentTarget.value })} />
              <button type="button" class="secondary" data-action="count" disabled={w.busy || count === '' || !Number.isInteger(n) || n < 0} onClick={() => set(d, { remaining: n })}>Set count</button>
              <button type="button" class="secondary" data-action="back" disabled={w.busy || (!d.sold_out && d.remaining === null)} onClick={() => set(d, { sold_out: false })}>Back on sale</button>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
