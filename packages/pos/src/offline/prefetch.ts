import type { components } from '@comanda/client';

type Order = components['schemas']['Order'];

/** What the floor last showed of each order prefetched: a change of any of these means the order changed. */
const seen = new Map<string, string>();
let running = false;

/**
 * A waiter's own open orders, read into the tablet's copy as soon as the floor shows them changed, so
 * that with the network gone each of them still opens (issue 59: "open orders kept on the device"),
 * not only those this tablet happened to open. Only the waiter's own, only on a change the floor's one
 * list already shows (status, total, guests, table), one at a time: at 40 tablets that is a read per
 * order change, not a poll per order.
 */
export function prefetchOwnOrders(userId: string, orders: Order[], readOrder: (id: string) => Promise<unknown>): void {
  const changed = orders.filter((o) => o.user_id === userId && seen.get(o.id) !== summary(o));
  if (changed.length === 0 || running) return;
  running = true;
  void (async () => {
    try {
      for (const o of changed) {
        await readOrder(o.id);
        seen.set(o.id, summary(o));
      }
    } catch {
      // The network went away meanwhile: the next change of the floor tries again.
    } finally {
      running = false;
    }
  })();
}

const summary = (o: Order) => `${o.status}|${o.total}|${o.guests}|${o.table_id}`;
