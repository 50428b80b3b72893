import { online, useSignal, writesInFlight } from './api.js';
import { dishName } from './menu.js';
import { clock } from './money.js';
import { held, refusals, waiting } from './offline/outbox.js';
import type { Entry } from './offline/store.js';

/**
 * While the network is away, or writes wait on this tablet: how many and since when. Every screen
 * shows the same banner (the POS and the kitchen display); `retrying` says what the screen does meanwhile.
 */
export function OfflineBanner(props: { retrying?: string }) {
  const up = useSignal(online);
  const inFlight = useSignal(writesInFlight);
  const kept = useSignal(waiting);
  const why = useSignal(held);
  const count = kept.length + inFlight;
  if (up && kept.length === 0) return null;
  const changes = `${count} change${count === 1 ? '' : 's'}`;
  const since = kept[0] ? ` since ${clock(kept[0].at)}` : '';
  return (
    <div class="offline" id="offline-banner" role="status" data-waiting={count}>
      {why ? `${changes} kept on this tablet${since}: sent when ${why}`
        : !up ? `No connection to the POS — ${count > 0 ? `${changes} kept on this tablet${since}, sent as soon as it is back` : props.retrying ?? 'retrying'}`
        : `Sending ${changes} kept on this tablet${since}…`}
    </div>
  );
}

/** What the server refused after the waiter had moved on: what happened and what to do, until read. */
export function Refusals(props: { onDismiss: (id: number) => void }) {
  const list = useSignal(refusals);
  if (list.length === 0) return null;
  return (
    <section class="refusals" id="refusals" role="alert">
      <h2>Not accepted by the POS ({list.length})</h2>
      {list.map((r) => (
        <article class="refusal" key={r.id} data-refusal-path={r.entry.path}>
          <p><strong>{describe(r.entry)}</strong>, done {clock(r.entry.at)}: {r.message}.</p>
          <p class="muted">{advice(r.entry, r.status)}</p>
          <button type="button" class="secondary" onClick={() => props.onDismiss(r.id!)}>Got it</button>
        </article>
      ))}
    </section>
  );
}

const dishes = (e: Entry) => (Array.isArray(e.body) ? e.body.map((d: { dish_id: string; quantity?: number }) => `${d.quantity ?? 1} × ${e.dishNames?.[d.dish_id] ?? dishName(d.dish_id)}`).join(', ') : 'dishes');

/** The write in the waiter's words. */
function describe(e: Entry): string {
  const sub = e.path.split('?')[0]!;
  if (e.method === 'POST' && sub === '/orders') return 'Seating a new order';
  if (e.method === 'POST' && sub.endsWith('/dishes')) return `Adding ${dishes(e)}`;
  if (sub.endsWith('/fire')) return 'Firing to the kitchen';
  if (sub.includes('/dishes/')) return e.method === 'DELETE' ? 'Removing a line' : 'Changing a line';
  if (sub.endsWith('/payments')) return `Taking ${(e.body as { method?: string }).method ?? 'a payment'}`;
  if (sub.endsWith('/discounts')) return 'A discount';
  return `${e.method} ${sub}`;
}

/** What to do about it. */
function advice(e: Entry, status: number): string {
  const sub = e.path.split('?')[0]!;
  if (status === 0) return 'The order was not created, so this was not sent: enter it again on the order you seat instead.';
  if (e.method === 'POST' && sub === '/orders') return 'Your order was not created: seat the guests at another table (or open the order already there) and enter their dishes again.';
  if (e.method === 'POST' && sub.endsWith('/dishes')) return 'Those dishes are not on the order: tell the guests and offer something else.';
  if (sub.endsWith('/fire')) return 'The kitchen did not get it: open the order and fire it again.';
  if (sub.endsWith('/payments')) return 'This money is not recorded: open the bill, check what is due and take it again.';
  return 'Open the order, check it, and do it again if it is still needed.';
}
