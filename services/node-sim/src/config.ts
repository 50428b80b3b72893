import type { ChainName } from '@comanda/lightning';
import type { Logger } from 'pino';
import type { WebhookPolicy } from './events.js';
import type { Clock } from './runtime.js';

export interface ChannelConfig {
  capacitySat?: number;
  balanceSat?: number;
  inboundLiquiditySat?: number;
}

export interface NodeConfig {
  name: string;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** 0 or unset: a free port. */
  port?: number;
  /** Full-access password; generated (32 random bytes, hex) when unset, and kept in the data dir. */
  password?: string;
  limitedPassword?: string;
  webhookUrls?: string[];
  webhookSecret?: string;
  /** Node key: 64 hex digits, or any text hashed into one. Default: derived from the network seed and name. */
  seed?: string;
  /** User part of the node's lightning address; default the name in lower case. */
  lnAddressUser?: string;
  /** The channel the node starts with; null for none. */
  channel?: ChannelConfig | null;
}

export interface NetworkConfig {
  nodes?: NodeConfig[];
  chain?: ChainName;
  /** Deterministic mode: every key, secret, preimage and id comes from this seed. */
  seed?: string;
  /** Injected clock (in-process only). */
  clock?: Clock;
  /** Fixed clock starting at this time (ms); it then only moves when a test advances it. */
  startTimeMs?: number;
  /** Persist the state here as JSON; unset: in memory, exports under the OS temp dir. */
  dataDir?: string;
  /** A block every this many ms; 0 = only when mineBlocks is called. */
  blockIntervalMs?: number;
  startHeight?: number;
  feerateSatByte?: number;
  /** Inbound liquidity bought when a payment does not fit the channel. */
  autoLiquiditySat?: number;
  webhook?: Partial<WebhookPolicy>;
  logger?: Logger;
}

/** The default network of `npm run node-sim`: the restaurant's node and a customer's wallet. */
export const DEFAULT_NODES: readonly NodeConfig[] = [
  { name: 'restaurant', port: 9740, channel: { balanceSat: 50_000, inboundLiquiditySat: 2_000_000 } },
  { name: 'customer', port: 9741, channel: { balanceSat: 1_000_000, inboundLiquiditySat: 1_000_000 } },
];

export const DEFAULTS = {
  chain: 'regtest' as ChainName,
  blockIntervalMs: 60_000,
  startHeight: 100,
  feerateSatByte: 2,
  autoLiquiditySat: 1_000_000,
  channel: { balanceSat: 100_000, inboundLiquiditySat: 1_000_000 },
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Balance and inbound in msat from any consistent subset of capacity, balance and inbound. */
export function resolveChannel(name: string, channel: ChannelConfig): { balanceMsat: number; inboundMsat: number } {
  const { capacitySat, balanceSat, inboundLiquiditySat } = channel;
  for (const [key, value] of Object.entries(channel)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new ConfigError(`node ${name}: channel.${key} must be a non-negative integer`);
  }
  const balance = balanceSat ?? (capacitySat !== undefined && inboundLiquiditySat !== undefined ? capacitySat - inboundLiquiditySat : 0);
  const inbound = inboundLiquiditySat ?? (capacitySat !== undefined ? capacitySat - balance : 0);
  if (balance < 0 || inbound < 0 || (capacitySat !== undefined && capacitySat !== balance + inbound)) {
    throw new ConfigError(`node ${name}: channel capacity must equal balance + inbound liquidity`);
  }
  return { balanceMsat: balance * 1000, inboundMsat: inbound * 1000 };
}
