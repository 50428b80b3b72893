import type { Decider } from '../decider.js';

/**
 * One payment the restaurant sends (`walletpayment-<id>`; the id comes from the Idempotency-Key when
 * there is one). The request is recorded BEFORE the node is asked, so a retry after a timeout or a
 * crash finds it and reconciles with the node instead of paying a second time.
 */
export const walletPaymentStream = (paymentId: string) => `walletpayment-${paymentId}`;

export type WalletPaymentKind = 'invoice' | 'offer' | 'onchain' | 'bumpfee';

/** Why a payment failed, in the restaurant's words; the HTTP layer maps each to a status. */
export type WalletPaymentFailure = 'already_paid' | 'expired' | 'insufficient_funds' | 'invalid' | 'refused';

export interface WalletPaymentRequest {
  kind: WalletPaymentKind;
  /** Who asked (an admin). */
  by: string;
  /** Amount asked for; absent when the invoice or offer carries it. */
  amountSat?: number;
  /** The invoice, offer or on-chain address paid (public data); none for a fee bump. */
  target?: string;
  /** Known beforehand for invoices (decoded), the key to reconcile with the node. */
  paymentHash?: string;
  feerateSatByte?: number;
  /** Fingerprint of the HTTP request: the same key with another request is refused. */
  fingerprint: string;
}

/** What the node answered; never the preimage (the node keeps it and answers it again on request). */
export type WalletPaymentOutcome = Record<string, string | number>;

export interface WalletPayment {
  status: 'none' | 'requested' | 'succeeded' | 'failed';
  request: WalletPaymentRequest | null;
  outcome: WalletPaymentOutcome | null;
  failure: { code: WalletPaymentFailure; reason: string } | null;
}

export type WalletPaymentEvent =
  | { type: 'WalletPaymentRequested'; data: WalletPaymentRequest & { paymentId: string; at: number } }
  | { type: 'WalletPaymentSucceeded'; data: { outcome: WalletPaymentOutcome; at: number } }
  | { type: 'WalletPaymentFailed'; data: { code: WalletPaymentFailure; reason: string; at: number } };

export type WalletPaymentCommand =
  | { type: 'requestPayment'; paymentId: string; request: WalletPaymentRequest; at: number }
  | { type: 'recordSuccess'; outcome: WalletPaymentOutcome; at: number }
  | { type: 'recordFailure'; code: WalletPaymentFailure; reason: string; at: number };

export const walletPayment: Decider<WalletPaymentCommand, WalletPaymentEvent, WalletPayment> = {
  initialState: () => ({ status: 'none', request: null, outcome: null, failure: null }),

  decide(command, state) {
    switch (command.type) {
      case 'requestPayment':
        // A second request on the stream is the retry itself: the caller reconciles, nothing new happens.
        if (state.status !== 'none') return [];
        return [{ type: 'WalletPaymentRequested', data: { ...command.request, paymentId: command.paymentId, at: command.at } }];
      case 'recordSuccess':
        // The first outcome stands: a late duplicate answer does not rewrite history.
        if (state.status !== 'requested') return [];
        return [{ type: 'WalletPaymentSucceeded', data: { outcome: command.outcome, at: command.at } }];
      case 'recordFailure':
        if (state.status !== 'requested') return [];
        return [{ type: 'WalletPaymentFailed', data: { code: command.code, reason: command.reason, at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WalletPaymentRequested': {
        const { paymentId: _id, at: _at, ...request } = event.data;
        return { ...state, status: 'requested', request };
      }
      case 'WalletPaymentSucceeded':
        return { ...state, status: 'succeeded', outcome: event.data.outcome };
      case 'WalletPaymentFailed':
        return { ...state, status: 'failed', failure: { code: event.data.code, reason: event.data.reason } };
    }
  },
};
