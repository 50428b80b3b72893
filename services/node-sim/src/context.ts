import type { ChainName } from '@comanda/lightning';
import type { SimChain } from './chain.js';
import type { Clock, RandomSource } from './runtime.js';
import type { IncomingPayment } from './records.js';
import type { SimNode } from './node.js';

/** What a node sees of the network it lives in. */
export interface NetworkContext {
  readonly chainName: ChainName;
  readonly chain: SimChain;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** Inbound liquidity bought per purchase when a payment does not fit. */
  readonly autoLiquiditySat: number;
  /** Node id of the simulated liquidity provider at the other end of every channel. */
  readonly lspNodeId: string;
  /** Directory under which each node writes `<name>/exports/`. */
  readonly dataRoot: string;
  nodeById(nodeId: string): SimNode | undefined;
  /** State changed: persist it. */
  changed(): void;
  paymentReceived(node: SimNode, payment: IncomingPayment): void;
}
