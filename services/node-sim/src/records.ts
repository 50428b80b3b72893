// Payment records as the simulator keeps them, and their JSON views in the node API's shapes.

export interface IncomingPayment {
  paymentHash: string;
  preimage: string;
  paymentSecret?: string;
  origin: 'invoice' | 'offer';
  externalId?: string;
  description?: string;
  invoice?: string;
  webhookUrl?: string;
  requestedMsat?: number;
  receivedMsat: number;
  feesMsat: number;
  payerNote?: string;
  payerKey?: string;
  /** Where the received amount went: the channel or, for too small a payment, the fee credit. */
  destination?: 'balance' | 'fee_credit';
  expiresAt?: number;
  completedAt?: number;
  createdAt: number;
}

export type OutgoingSubType = 'lightning' | 'auto_liquidity' | 'splice_out' | 'splice_cpfp' | 'channel_close';

export interface OutgoingPayment {
  paymentId: string;
  subType: OutgoingSubType;
  status: 'pending' | 'succeeded' | 'failed';
  failure?: string;
  paymentHash?: string;
  preimage?: string;
  txId?: string;
  invoice?: string;
  address?: string;
  /** What reached the recipient (0 for pure fees such as liquidity or CPFP). */
  recipientMsat: number;
  feesMsat: number;
  /** Effect on the balance and the fee credit, for the CSV export (negative = spent). */
  balanceDeltaMsat: number;
  feeCreditDeltaMsat: number;
  miningFeeSat?: number;
  serviceFeeMsat?: number;
  completedAt?: number;
  createdAt: number;
}

type Json = Record<string, unknown>;

/** HTTP and websocket JSON leave null fields out. */
export function omitNulls<T extends Json>(value: T): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));
}

export function isExpired(payment: IncomingPayment, now: number): boolean {
  return payment.expiresAt !== undefined && now > payment.expiresAt;
}

export function incomingJson(p: IncomingPayment, now: number): Json {
  return omitNulls({
    type: 'incoming_payment',
    subType: 'lightning',
    paymentHash: p.paymentHash,
    preimage: p.preimage,
    externalId: p.externalId,
    description: p.description,
    invoice: p.invoice,
    isPaid: p.completedAt !== undefined,
    isExpired: isExpired(p, now),
    requestedSat: p.requestedMsat === undefined ? undefined : Math.floor(p.requestedMsat / 1000),
    receivedSat: Math.floor(p.receivedMsat / 1000),
    fees: p.feesMsat,
    payerNote: p.payerNote,
    payerKey: p.payerKey,
    expiresAt: p.expiresAt,
    completedAt: p.completedAt,
    createdAt: p.createdAt,
  });
}

export function outgoingJson(p: OutgoingPayment): Json {
  return omitNulls({
    type: 'outgoing_payment',
    subType: p.subType,
    paymentId: p.paymentId,
    paymentHash: p.paymentHash,
    preimage: p.preimage,
    txId: p.txId,
    isPaid: p.status === 'succeeded',
    sent: Math.floor((p.recipientMsat + p.feesMsat) / 1000),
    fees: p.feesMsat,
    invoice: p.invoice,
    completedAt: p.completedAt,
    createdAt: p.createdAt,
  });
}

/** The `payment_received` event; webhooks send it with explicit nulls, the websocket without. */
export function paymentReceivedEvent(p: IncomingPayment): Json {
  return {
    type: 'payment_received',
    timestamp: p.completedAt ?? null,
    amountSat: Math.floor(p.receivedMsat / 1000),
    paymentHash: p.paymentHash,
    externalId: p.externalId ?? null,
    payerNote: p.payerNote ?? null,
    payerKey: p.payerKey ?? null,
  };
}

/** Result of payinvoice, payoffer, paylnaddress and lnurlpay. */
export type PaymentResult =
  | { ok: true; recipientAmountSat: number; routingFeeSat: number; paymentId: string; paymentHash: string; paymentPreimage: string }
  | { ok: false; paymentHash?: string; reason: string };

export function paymentResultJson(result: PaymentResult): Json {
  const { ok: _ok, ...body } = result;
  return omitNulls(body);
}
