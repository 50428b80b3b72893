import { base58check, bech32, bech32m } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import type { ChainName } from './chains.js';

// On-chain destinations of sendtoaddress and closechannel: segwit (BIP-173/350) or legacy base58check
// addresses of the node's chain.

const SEGWIT_HRP: Record<ChainName, string> = { mainnet: 'bc', testnet3: 'tb', testnet4: 'tb', signet: 'tb', regtest: 'bcrt' };
const BASE58_VERSIONS: Record<ChainName, number[]> = {
  mainnet: [0x00, 0x05],
  testnet3: [0x6f, 0xc4],
  testnet4: [0x6f, 0xc4],
  signet: [0x6f, 0xc4],
  regtest: [0x6f, 0xc4],
};

const b58 = base58check(sha256);

export function isValidAddress(address: string, chain: ChainName): boolean {
  return isSegwit(address, SEGWIT_HRP[chain]) || isBase58(address, BASE58_VERSIONS[chain]);
}

function isSegwit(address: string, hrp: string): boolean {
  if (!address.toLowerCase().startsWith(`${hrp}1`)) return false;
  for (const coder of [bech32, bech32m]) {
    const decoded = coder.decodeUnsafe(address);
    if (!decoded || decoded.prefix !== hrp || decoded.words.length === 0) continue;
    const [version, ...rest] = decoded.words;
    const program = coder.fromWordsUnsafe(rest);
    if (!program || version > 16) continue;
    // BIP-350: version 0 uses bech32, later versions bech32m.
    if ((version === 0) !== (coder === bech32)) continue;
    if (program.length < 2 || program.length > 40) continue;
    if (version === 0 && program.length !== 20 && program.length !== 32) continue;
    return true;
  }
  return false;
}

function isBase58(address: string, versions: number[]): boolean {
  try {
    const payload = b58.decode(address);
    return payload.length === 21 && versions.includes(payload[0]);
  } catch {
    return false;
  }
}
