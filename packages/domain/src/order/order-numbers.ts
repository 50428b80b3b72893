import type { Decider } from '../decider.js';

/**
 * The numbers a business day gives its orders (`ordernumbers-<YYYY-MM-DD>`, the day in
 * COMANDA_TIMEZONE): #1, #2, … from the first order of each day, called out at the pass and printed
 * on kitchen tickets and receipts. One stream per day makes "unique within the day" hold under any
 * concurrency (two waiters at once: the second is decided again and takes the next number), and keeps
 * each stream a day long.
 */
export const orderNumbersStream = (day: string) => `ordernumbers-${day}`;

export interface OrderNumbers {
  /** The last number given. */
  taken: number;
  /** Each order's number: asking again for the same order (a retried request) answers the same one. */
  byOrder: Record<string, number>;
}

export type OrderNumberEvent = { type: 'OrderNumberTaken'; data: { orderId: string; number: number; day: string } };
export type OrderNumberCommand = { type: 'takeOrderNumber'; orderId: string; day: string };

export const orderNumbers: Decider<OrderNumberCommand, OrderNumberEvent, OrderNumbers> = {
  initialState: () => ({ taken: 0, byOrder: {} }),
  decide(command, state) {
    if (state.byOrder[command.orderId] !== undefined) return [];
    return [{ type: 'OrderNumberTaken', data: { orderId: command.orderId, number: state.taken + 1, day: command.day } }];
  },
  evolve(state, event) {
    const { orderId, number } = event.data;
    return { taken: Math.max(state.taken, number), byOrder: { ...state.byOrder, [orderId]: number } };
  },
};
