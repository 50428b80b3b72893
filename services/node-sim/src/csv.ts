import type { IncomingPayment, OutgoingPayment, OutgoingSubType } from './records.js';

// The payment-history CSV of /export. Summing amount_msat gives the balance and summing fee_credit_msat
// the fee credit, so every movement of funds is one row, including the opening deposit.

export const CSV_HEADER = 'date,id,type,amount_msat,fee_credit_msat,mining_fee_sat,service_fee_msat,payment_hash,tx_id';

export interface LedgerRow {
  date: number;
  id: string;
  type: string;
  amountMsat: number;
  feeCreditMsat: number;
  miningFeeSat: number;
  serviceFeeMsat: number;
  paymentHash?: string;
  txId?: string;
}

const OUTGOING_TYPE: Record<OutgoingSubType, string> = {
  lightning: 'lightning_sent',
  auto_liquidity: 'liquidity_purchase',
  splice_out: 'swap_out',
  splice_cpfp: 'fee_bumping',
  channel_close: 'channel_close',
};

export function incomingRow(p: IncomingPayment & { completedAt: number }): LedgerRow {
  const toCredit = p.destination === 'fee_credit';
  return {
    date: p.completedAt,
    id: p.paymentHash,
    type: 'lightning_received',
    amountMsat: toCredit ? 0 : p.receivedMsat,
    feeCreditMsat: toCredit ? p.receivedMsat : 0,
    miningFeeSat: 0,
    serviceFeeMsat: 0,
    paymentHash: p.paymentHash,
  };
}

export function outgoingRow(p: OutgoingPayment & { completedAt: number }): LedgerRow {
  return {
    date: p.completedAt,
    id: p.paymentId,
    type: OUTGOING_TYPE[p.subType],
    amountMsat: p.balanceDeltaMsat,
    feeCreditMsat: p.feeCreditDeltaMsat,
    miningFeeSat: p.miningFeeSat ?? 0,
    serviceFeeMsat: p.serviceFeeMsat ?? 0,
    paymentHash: p.paymentHash,
    txId: p.txId,
  };
}

/** Oldest first, RFC 4180 quoting, CRLF line ends. */
export function toCsv(rows: readonly LedgerRow[]): string {
  const sorted = [...rows].sort((a, b) => a.date - b.date);
  const lines = sorted.map((r) =>
    [new Date(r.date).toISOString(), r.id, r.type, r.amountMsat, r.feeCreditMsat, r.miningFeeSat, r.serviceFeeMsat, r.paymentHash ?? '', r.txId ?? '']
      .map((cell) => quote(String(cell)))
      .join(','),
  );
  return [CSV_HEADER, ...lines].join('\r\n') + '\r\n';
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
