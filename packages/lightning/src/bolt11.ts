import type { ChainName } from './chains.js';

/** One hop of a private route hint (`r` field), the shape decodeinvoice prints as extraHops. */
export interface RouteHintHop {
  nodeId: string;
  /** `<block>x<tx>x<output>`. */
  shortChannelId: string;
  feeBaseMsat: number;
  feeProportionalMillionths: number;
  cltvExpiryDelta: number;
}

export interface FallbackAddress {
  /** 0–16 witness version, 17 P2PKH, 18 P2SH. */
  version: number;
  program: string;
}

/** A decoded BOLT11 invoice whose signature has been checked. Binary fields are lowercase hex. */
export interface Bolt11Invoice {
  /** The invoice in lowercase, without a `lightning:` prefix. */
  paymentRequest: string;
  chain: ChainName;
  amountMsat?: number;
  timestampSeconds: number;
  paymentHash: string;
  paymentSecret?: string;
  description?: string;
  descriptionHash?: string;
  /** As written in the invoice; readers use {@link DEFAULT_EXPIRY_SECONDS} when absent. */
  expirySeconds?: number;
  minFinalCltvExpiryDelta?: number;
  paymentMetadata?: string;
  fallbackAddresses: FallbackAddress[];
  routeHints: RouteHintHop[][];
  featureBits: number[];
  /** From the `n` field when present, otherwise recovered from the signature. */
  payeeNodeId: string;
}

export const DEFAULT_EXPIRY_SECONDS = 3600;

export function invoiceExpiresAtMs(invoice: Pick<Bolt11Invoice, 'timestampSeconds' | 'expirySeconds'>): number {
  return (invoice.timestampSeconds + (invoice.expirySeconds ?? DEFAULT_EXPIRY_SECONDS)) * 1000;
}

/** Tag numbers of the fields this codec reads and writes (BOLT11 "Tagged Fields"). */
export const TAG = {
  paymentHash: 1,
  routeHint: 3,
  features: 5,
  expiry: 6,
  fallback: 9,
  description: 13,
  paymentSecret: 16,
  payeeNodeId: 19,
  descriptionHash: 23,
  minFinalCltvExpiry: 24,
  paymentMetadata: 27,
} as const;

export const TIMESTAMP_WORDS = 7;
export const SIGNATURE_WORDS = 104;
