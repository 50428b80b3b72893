import { useRef, useState } from 'preact/hooks';
import { ApiError, api, newKey, ok } from './api.js';
import type { OrderLine } from './menu.js';

/** A dish tapped: how many, for which course and seat (a dish with options goes through its sheet instead). */
export type DishTap = { dishId: string; n: number; course: number; seat: number | null };

/** An unfired line this screen wrote (or saw), by what a tap of the same dish would add to. */
type Known = { lineId: string; quantity: number };
const keyOf = (t: { dishId: string; course: number; seat: number | null }) => `${t.dishId}|${t.course}|${t.seat ?? ''}`;

/**
 * Taps on the order screen, never dropped: a tap while a write is on its way waits its turn, and the
 * taps that waited go out together, the same dish summed (five quick taps are one line of five, one
 * or two writes, never five). A dish tapped again adds to its last unfired line (same course and seat,
 * no options, no notes) — the line the server shows, or the one this screen just added and the next
 * read has not brought yet (its id is in the POST's answer). Each write keeps its own Idempotency-Key
 * through the outbox, so nothing is applied twice.
 */
export function useDishTaps(orderId: string, lines: OrderLine[], after: () => void) {
  const queue = useRef<DishTap[]>([]);
  const draining = useRef(false);
  const known = useRef<Record<string, Known>>({});
  const latest = useRef(lines);
  latest.current = lines;
  // The taps not answered yet, shown on the ticket at once (the waiter sees each tap taken).
  const [adding, setAdding] = useState<DishTap[]>([]);
  const [error, setError] = useState('');
  // Who waits for the taps to be written (a fire tapped after them goes after them, as the waiter meant).
  const waiters = useRef<Array<() => void>>([]);
  // A fire on its way: a tap made after it waits for it, and never adds to a line it fired (the
  // screen's read still shows those lines unfired for a moment: the tap went to a fired line, 409, lost).
  const fence = useRef<Promise<unknown>>(Promise.resolve());
  const fired = useRef(new Set<string>());

  /** The unfired line a tap of this dish adds to, if there is one: the server's word first. */
  const lineFor = (tap: DishTap): Known | undefined => {
    const onServer = latest.current.filter((l) => !fired.current.has(l.id) && l.dish_id === tap.dishId && l.course === tap.course && l.seat === tap.seat && l.modifiers.length === 0 && !l.notes);
    const mine = known.current[keyOf(tap)];
    const seen = mine && onServer.find((l) => l.id === mine.lineId);
    // Ours, still unfired (or not on the server's list yet): it knows the latest quantity.
    if (mine && !fired.current.has(mine.lineId) && (!seen || seen.kitchen_status === 'pending')) return { lineId: mine.lineId, quantity: Math.max(mine.quantity, seen?.quantity ?? 0) };
    const last = onServer.filter((l) => l.kitchen_status === 'pending').pop();
    return last && { lineId: last.id, quantity: last.quantity };
  };

  const write = async (tap: DishTap) => {
    const line = lineFor(tap);
    if (line) {
      const quantity = line.quantity + tap.n;
      try {
        await ok(api.PUT('/orders/{id}/dishes/{dishId}', { params: { path: { id: orderId, dishId: line.lineId } }, body: { quantity }, headers: { 'idempotency-key': newKey() } }));
        known.current[keyOf(tap)] = { lineId: line.lineId, quantity };
        return;
      } catch (e) {
        // Fired from elsewhere meanwhile (the kitchen, another tablet), or discounted: nothing was
        // written; the tap goes on a new line of its own rather than being lost.
        if (!(e instanceof ApiError && e.status === 409)) throw e;
        fired.current.add(line.lineId);
      }
    }
    const answer = await ok(api.POST('/orders/{id}/dishes', { params: { path: { id: orderId } }, body: [{ dish_id: tap.dishId, quantity: tap.n, course: tap.course, seat: tap.seat }], headers: { 'idempotency-key': newKey() } }));
    const lineId = 'ids' in answer ? answer.ids[0] : undefined;
    if (lineId) known.current[keyOf(tap)] = { lineId, quantity: tap.n };
  };

  const drain = async () => {
    if (draining.current) return;
    draining.current = true;
    setError('');
    try {
      while (queue.current.length > 0) {
        await fence.current.catch(() => undefined);
        const taken = queue.current.splice(0);
        for (const tap of summed(taken)) {
          try {
            await write(tap);
          } catch (e) {
            // Refused (sold out, the order closed meanwhile): said on the screen; the other taps go on.
            setError(e instanceof Error ? e.message : String(e));
          }
        }
        setAdding((now) => now.slice(taken.length));
        after();
      }
    } finally {
      draining.current = false;
      for (const resolve of waiters.current.splice(0)) resolve();
    }
  };

  /** Resolves once every tap taken so far is written (at once when none waits). */
  const settled = () => new Promise<void>((resolve) => (draining.current ? waiters.current.push(resolve) : resolve()));

  /**
   * A fire sent (of `course`, or all): the unfired lines it takes are no longer added to, and taps made
   * meanwhile wait for its answer before they are written.
   */
  const firing = (sent: Promise<unknown>, course?: number) => {
    const taken = [...latest.current.filter((l) => l.kitchen_status === 'pending').map((l) => ({ id: l.id, course: l.course })), ...Object.entries(known.current).map(([k, v]) => ({ id: v.lineId, course: Number(k.split('|')[1]) }))];
    for (const l of taken) if (course === undefined || l.course === course) fired.current.add(l.id);
    fence.current = sent;
  };

  const tap = (t: DishTap) => {
    queue.current.push(t);
    setAdding((now) => [...now, t]);
    void drain();
  };
  return { tap, settled, firing, adding: summed(adding), error };
}

/** Taps of the same dish, course and seat summed, in the order first tapped. */
function summed(taps: DishTap[]): DishTap[] {
  const by = new Map<string, DishTap>();
  for (const t of taps) {
    const k = keyOf(t);
    const had = by.get(k);
    by.set(k, had ? { ...had, n: had.n + t.n } : { ...t });
  }
  return [...by.values()];
}
