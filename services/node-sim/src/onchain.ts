import { isValidAddress } from '@comanda/lightning';
import type { ChainTx, TxKind } from './chain.js';
import { spliceOut } from './channel.js';
import { VSIZE } from './fees.js';
import type { SimNode } from './node.js';
import { randomHex } from './runtime.js';

// On-chain operations of the node API. Like the real node, they answer 200 with a text either way:
// the transaction id on success, an explanation otherwise.

export type OnchainResult = { ok: true; txId: string } | { ok: false; message: string };

export const ONCHAIN_TEXT = {
  invalidAddress: 'Invalid address',
  noChannel: 'no channel available',
  insufficientFunds: 'insufficient funds',
  nothingToBump: 'no unconfirmed transaction to bump',
  feerateTooLow: 'feerate must be higher than the feerate of the unconfirmed transactions',
} as const;

/** Splice-out: pays `amountSat` to the address out of the channel, which stays open. */
export function sendToAddress(node: SimNode, amountSat: number, address: string, feerateSatByte: number): OnchainResult {
  if (!isValidAddress(address, node.ctx.chainName)) return { ok: false, message: ONCHAIN_TEXT.invalidAddress };
  const channel = node.state.channel;
  if (channel?.state !== 'Normal') return { ok: false, message: ONCHAIN_TEXT.noChannel };
  const feeSat = feerateSatByte * VSIZE.spliceOut;
  const totalMsat = (amountSat + feeSat) * 1000;
  if (channel.balanceMsat < totalMsat) return { ok: false, message: ONCHAIN_TEXT.insufficientFunds };
  const tx = broadcast(node, 'splice_out', feeSat, VSIZE.spliceOut);
  node.state.channel = spliceOut(channel, totalMsat);
  recordOnchain(node, 'splice_out', tx, amountSat, feeSat, address);
  return { ok: true, txId: tx.txId };
}

/** CPFP: one child transaction raising the package of all unconfirmed transactions to the feerate. */
export function bumpFee(node: SimNode, feerateSatByte: number): OnchainResult {
  const parents = node.ctx.chain.unconfirmed(node.name);
  if (parents.length === 0) return { ok: false, message: ONCHAIN_TEXT.nothingToBump };
  const parentsVsize = parents.reduce((sum, tx) => sum + tx.vsize, 0);
  const parentsFeeSat = parents.reduce((sum, tx) => sum + tx.feeSat, 0);
  if (feerateSatByte * parentsVsize <= parentsFeeSat) return { ok: false, message: ONCHAIN_TEXT.feerateTooLow };
  const feeSat = feerateSatByte * (parentsVsize + VSIZE.cpfpChild) - parentsFeeSat;
  const channel = node.state.channel;
  if (channel?.state !== 'Normal') return { ok: false, message: ONCHAIN_TEXT.noChannel };
  if (channel.balanceMsat < feeSat * 1000) return { ok: false, message: ONCHAIN_TEXT.insufficientFunds };
  const tx = broadcast(node, 'cpfp', feeSat, VSIZE.cpfpChild);
  node.state.channel = spliceOut(channel, feeSat * 1000);
  recordOnchain(node, 'splice_cpfp', tx, 0, feeSat);
  return { ok: true, txId: tx.txId };
}

/** Mutual close: the whole balance, less the mining fee, goes to the address. Final. */
export function closeChannel(node: SimNode, channelId: string, address: string, feerateSatByte: number): OnchainResult {
  const channel = node.state.channel;
  if (!channel || channel.channelId !== channelId || channel.state !== 'Normal') return { ok: false, message: ONCHAIN_TEXT.noChannel };
  if (!isValidAddress(address, node.ctx.chainName)) return { ok: false, message: ONCHAIN_TEXT.invalidAddress };
  const feeSat = Math.min(feerateSatByte * VSIZE.close, Math.floor(channel.balanceMsat / 1000));
  const tx = broadcast(node, 'close', feeSat, VSIZE.close);
  const amountSat = Math.floor(channel.balanceMsat / 1000) - feeSat;
  recordOnchain(node, 'channel_close', tx, amountSat, feeSat, address, channel.balanceMsat);
  node.state.channel = { ...channel, state: 'Closing', balanceMsat: 0 };
  node.state.closingTxId = tx.txId;
  node.ctx.changed();
  return { ok: true, txId: tx.txId };
}

/** Called when blocks confirm transactions: a confirmed close removes the channel. */
export function onConfirmed(node: SimNode, confirmed: readonly ChainTx[]): void {
  if (node.state.closingTxId && confirmed.some((tx) => tx.txId === node.state.closingTxId)) {
    node.state.channel = null;
    node.state.closingTxId = undefined;
    node.ctx.changed();
  }
}

function broadcast(node: SimNode, kind: TxKind, feeSat: number, vsize: number): ChainTx {
  return node.ctx.chain.broadcast({ txId: randomHex(node.ctx.random, 32), kind, owner: node.name, feeSat, vsize, createdAt: node.ctx.clock.now() });
}

// On-chain payments lock at once (the provider accepts them zero-conf), so they count as paid when made.
function recordOnchain(node: SimNode, subType: 'splice_out' | 'splice_cpfp' | 'channel_close', tx: ChainTx, amountSat: number, feeSat: number, address?: string, debitMsat?: number): void {
  node.recordOutgoing({
    subType,
    status: 'succeeded',
    txId: tx.txId,
    address,
    recipientMsat: amountSat * 1000,
    feesMsat: feeSat * 1000,
    balanceDeltaMsat: -(debitMsat ?? (amountSat + feeSat) * 1000),
    feeCreditDeltaMsat: 0,
    miningFeeSat: feeSat,
    completedAt: node.ctx.clock.now(),
  });
}
