import type { Decider } from '../decider.js';

/**
 * A payment the node received that names no order (`unmatchedpayment-<paymentHash>`): kept so the
 * money is never lost from the books, and recorded once however often the webhook arrives.
 */
export const unmatchedPaymentStream = (paymentHash: string) => `unmatchedpayment-${paymentHash}`;

export interface ReceivedPayment {
  paymentHash: string;
  amountSat: number;
  externalId: string | null;
  payerNote: string | null;
  payerKey: string | null;
  receivedAt: number;
}

export type UnmatchedPaymentEvent = { type: 'UnmatchedPaymentReceived'; data: ReceivedPayment };
export type UnmatchedPaymentCommand = { type: 'recordUnmatchedPayment'; payment: ReceivedPayment };

export const unmatchedPayment: Decider<UnmatchedPaymentCommand, UnmatchedPaymentEvent, { recorded: ReceivedPayment | null }> = {
  initialState: () => ({ recorded: null }),
  decide: (command, state) => (state.recorded ? [] : [{ type: 'UnmatchedPaymentReceived', data: command.payment }]),
  evolve: (_state, event) => ({ recorded: event.data }),
};
