import { liquidityFees } from './fees.js';

// The node's single channel with its liquidity provider, as pure state transitions. Balances are msat;
// capacity is always balance + inbound (reserves are not simulated).

export type ChannelState = 'Normal' | 'Closing';

export interface Channel {
  channelId: string;
  fundingTxId: string;
  shortChannelId: string;
  state: ChannelState;
  balanceMsat: number;
  inboundMsat: number;
}

export function capacityMsat(channel: Channel): number {
  return channel.balanceMsat + channel.inboundMsat;
}

/** Spendable balance: only a Normal channel can send. */
export function spendableMsat(channel: Channel | null): number {
  return channel?.state === 'Normal' ? channel.balanceMsat : 0;
}

export interface ReceivePolicy {
  /** Inbound liquidity bought when a payment does not fit, at least the payment itself. */
  autoLiquiditySat: number;
  feerateSatByte: number;
}

/** How an incoming payment is absorbed. */
export type ReceivePlan =
  | { kind: 'direct' }
  /** Too small to pay for new liquidity: kept as non-refundable fee credit. */
  | { kind: 'fee_credit' }
  | { kind: 'purchase'; liquiditySat: number; miningFeeSat: number; serviceFeeSat: number; fromFeeCreditMsat: number; fromAmountMsat: number };

export function planReceive(channel: Channel | null, feeCreditMsat: number, amountMsat: number, policy: ReceivePolicy): ReceivePlan {
  if (channel?.state === 'Normal' && amountMsat <= channel.inboundMsat) return { kind: 'direct' };
  const liquiditySat = Math.max(policy.autoLiquiditySat, Math.ceil(amountMsat / 1000));
  const { miningFeeSat, serviceFeeSat } = liquidityFees(liquiditySat, policy.feerateSatByte);
  const feeMsat = (miningFeeSat + serviceFeeSat) * 1000;
  if (feeCreditMsat + amountMsat < feeMsat) return { kind: 'fee_credit' };
  const fromFeeCreditMsat = Math.min(feeCreditMsat, feeMsat);
  return { kind: 'purchase', liquiditySat, miningFeeSat, serviceFeeSat, fromFeeCreditMsat, fromAmountMsat: feeMsat - fromFeeCreditMsat };
}

/**
 * Applies a plan. A purchase splices `liquiditySat` of inbound into the channel (or opens `fresh` when
 * there is no usable channel), the payment then flows in, and the fee goes to the provider's side.
 */
export function applyReceive(
  channel: Channel | null,
  feeCreditMsat: number,
  amountMsat: number,
  plan: ReceivePlan,
  fresh: () => Channel,
): { channel: Channel | null; feeCreditMsat: number } {
  switch (plan.kind) {
    case 'direct':
      return { channel: shift(channel as Channel, amountMsat), feeCreditMsat };
    case 'fee_credit':
      return { channel, feeCreditMsat: feeCreditMsat + amountMsat };
    case 'purchase': {
      const base = channel?.state === 'Normal' ? channel : fresh();
      const enlarged = { ...base, inboundMsat: base.inboundMsat + plan.liquiditySat * 1000 };
      return { channel: shift(enlarged, amountMsat - plan.fromAmountMsat), feeCreditMsat: feeCreditMsat - plan.fromFeeCreditMsat };
    }
  }
}

/** Moves msat from the remote side to ours (negative: we pay). Capacity is unchanged. */
export function shift(channel: Channel, msat: number): Channel {
  return { ...channel, balanceMsat: channel.balanceMsat + msat, inboundMsat: channel.inboundMsat - msat };
}

/** Takes msat out of the channel to the chain (splice-out, CPFP fee): capacity shrinks, inbound stays. */
export function spliceOut(channel: Channel, msat: number): Channel {
  return { ...channel, balanceMsat: channel.balanceMsat - msat };
}
