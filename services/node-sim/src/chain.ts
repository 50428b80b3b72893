// The simulated bitcoin chain: a height, a mining feerate, and the transactions the nodes broadcast.
// Blocks come from a timer (or from tests); every unconfirmed transaction confirms in the next block.

export type TxKind = 'funding' | 'liquidity' | 'splice_out' | 'cpfp' | 'close';

export interface ChainTx {
  txId: string;
  kind: TxKind;
  /** Name of the node that made it. */
  owner: string;
  vsize: number;
  feeSat: number;
  createdAt: number;
  confirmedHeight?: number;
}

export interface ChainState {
  height: number;
  feerateSatByte: number;
  txs: ChainTx[];
}

export class SimChain {
  readonly state: ChainState;
  constructor(state: ChainState) {
    this.state = state;
  }

  get height(): number {
    return this.state.height;
  }

  get feerateSatByte(): number {
    return this.state.feerateSatByte;
  }

  broadcast(tx: ChainTx): ChainTx {
    this.state.txs.push(tx);
    return tx;
  }

  /** Adds blocks; returns the transactions they confirmed. */
  mine(blocks: number): ChainTx[] {
    if (blocks <= 0) return [];
    const confirmed = this.unconfirmed();
    this.state.height += blocks;
    for (const tx of confirmed) tx.confirmedHeight = this.state.height - blocks + 1;
    return confirmed;
  }

  unconfirmed(owner?: string): ChainTx[] {
    return this.state.txs.filter((tx) => tx.confirmedHeight === undefined && (owner === undefined || tx.owner === owner));
  }

  confirmations(txId: string): number {
    const tx = this.state.txs.find((t) => t.txId === txId);
    return tx?.confirmedHeight === undefined ? 0 : this.state.height - tx.confirmedHeight + 1;
  }
}
