import type { Decider } from '../decider.js';

/**
 * The numbers a business day gives its orders (`ordernumbers-<YYYY-MM-DD>`, the day in
 * COMANDA_TIMEZONE): #1, #2, … from the first order of each day, called out at the pass and printed
 * on kitchen tickets and receipts. One stream per day makes "unique within the day" hold under any
 * concurrency (two waiters at once: the second is decided again and takes the next number), and keeps
 * each stream a day long.
 *
 * A process that is the store's only writer takes one number per order. API replicas sharing a store
 * lease a block each instead (`leaseOrderNumbers`) and give its numbers out in memory: one append per
 * block, not per order, so the day's stream is no hot spot that every order placed by every replica
 * must win. Numbers stay unique within the day; across replicas they are not in the order placed, and
 * a block a replica had not used up when it stopped leaves a gap (numbers were never gap-free).
 */
export const orderNumbersStream = (day: string) => `ordernumbers-${day}`;

export interface OrderNumbers {
  /** The last number given or leased. */
  taken: number;
  /** Each order's number: asking again for the same order (a retried request) answers the same one. */
  byOrder: Record<string, number>;
  /** Each lease's block: asking again with the same lease id answers the same block. */
  leases: Record<string, { from: number; to: number }>;
}

export type OrderNumberEvent =
  | { type: 'OrderNumberTaken'; data: { orderId: string; number: number; day: string } }
  | { type: 'OrderNumbersLeased'; data: { leaseId: string; from: number; to: number; day: string } };
export type OrderNumberCommand =
  | { type: 'takeOrderNumber'; orderId: string; day: string }
  | { type: 'leaseOrderNumbers'; leaseId: string; count: number; day: string };

export const orderNumbers: Decider<OrderNumberCommand, OrderNumberEvent, OrderNumbers> = {
  initialState: () => ({ taken: 0, byOrder: {}, leases: {} }),
  decide(command, state) {
    if (command.type === 'leaseOrderNumbers') {
      if (state.leases[command.leaseId] !== undefined) return [];
      const count = Math.max(1, Math.floor(command.count));
      return [{ type: 'OrderNumbersLeased', data: { leaseId: command.leaseId, from: state.taken + 1, to: state.taken + count, day: command.day } }];
    }
    if (state.byOrder[command.orderId] !== undefined) return [];
    return [{ type: 'OrderNumberTaken', data: { orderId: command.orderId, number: state.taken + 1, day: command.day } }];
  },
  evolve(state, event) {
    if (event.type === 'OrderNumbersLeased') {
      const { leaseId, from, to } = event.data;
      return { ...state, taken: Math.max(state.taken, to), leases: { ...state.leases, [leaseId]: { from, to } } };
    }
    const { orderId, number } = event.data;
    return { ...state, taken: Math.max(state.taken, number), byOrder: { ...state.byOrder, [orderId]: number } };
  },
};
