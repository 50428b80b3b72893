// The chains a node can run on: BOLT11 writes them as an HRP prefix, BOLT12 as a genesis block hash
// (in the byte order of the offers spec), the node API as a name.
export type ChainName = 'mainnet' | 'testnet3' | 'testnet4' | 'signet' | 'regtest';

interface ChainInfo {
  readonly name: ChainName;
  readonly bolt11Prefix: string;
  readonly chainHash: string;
}

export const CHAINS: readonly ChainInfo[] = [
  { name: 'mainnet', bolt11Prefix: 'bc', chainHash: '6fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000' },
  { name: 'testnet3', bolt11Prefix: 'tb', chainHash: '43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea330900000000' },
  { name: 'testnet4', bolt11Prefix: 'tb', chainHash: '43f08bdab050e35b567c864b91f47f50ae725ae2de53bcfbbaf284da00000000' },
  { name: 'signet', bolt11Prefix: 'tbs', chainHash: 'f61eee3b63a380a477a063af32b2bbc97c9ff9f01f2c4225e973988108000000' },
  { name: 'regtest', bolt11Prefix: 'bcrt', chainHash: '06226e46111a0b59caaf126043eb5bbf28c34f3a5e332a1fc7b2b73cf188910f' },
];

export function chainByName(name: string): ChainInfo | undefined {
  return CHAINS.find((chain) => chain.name === name);
}

/** testnet3 and testnet4 share the `tb` prefix; an invoice cannot tell them apart, so it reads as testnet3. */
export function chainByBolt11Prefix(prefix: string): ChainInfo | undefined {
  return CHAINS.find((chain) => chain.bolt11Prefix === prefix);
}

export function chainByHash(hash: string): ChainInfo | undefined {
  return CHAINS.find((chain) => chain.chainHash === hash);
}
