// Fee rules of the simulated node and its liquidity provider. All amounts are integers: msat or sat as named.

/** Lightning sending fee: 4 sat + 0.4 % of the amount (fee_msat = 4000 + floor(amount_msat * 4000 / 10^6)). */
export function lightningFeeMsat(amountMsat: number): number {
  return Number(4000n + (BigInt(amountMsat) * 4000n) / 1_000_000n);
}

/** Virtual sizes of the transactions the simulated wallet makes; the mining fee is feerate × vsize. */
export const VSIZE = {
  /** A splice that adds purchased inbound liquidity. */
  liquidityPurchase: 300,
  /** A splice-out paying an on-chain address. */
  spliceOut: 200,
  /** The child transaction of a CPFP fee bump. */
  cpfpChild: 150,
  /** A mutual close. */
  close: 180,
} as const;

/** Service fee of the liquidity provider: 1 % of the liquidity bought, rounded up. */
export function liquidityServiceFeeSat(liquiditySat: number): number {
  return Math.ceil(liquiditySat / 100);
}

export interface LiquidityFees {
  miningFeeSat: number;
  serviceFeeSat: number;
}

export function liquidityFees(liquiditySat: number, feerateSatByte: number): LiquidityFees {
  return { miningFeeSat: feerateSatByte * VSIZE.liquidityPurchase, serviceFeeSat: liquidityServiceFeeSat(liquiditySat) };
}

export function msatToSat(msat: number): number {
  return Math.floor(msat / 1000);
}
