// Feature bits follow BOLT 9: an even bit means the feature is required, the odd bit next to it that
// it is optional. Names are the ones the real node prints in decodeinvoice.
const FEATURE_NAMES: Readonly<Record<number, string>> = {
  0: 'option_data_loss_protect',
  4: 'option_upfront_shutdown_script',
  6: 'gossip_queries',
  8: 'var_onion_optin',
  10: 'gossip_queries_ex',
  12: 'option_static_remotekey',
  14: 'payment_secret',
  16: 'basic_mpp',
  18: 'option_support_large_channel',
  22: 'option_anchors_zero_fee_htlc_tx',
  24: 'option_route_blinding',
  26: 'option_shutdown_anysegwit',
  28: 'option_dual_fund',
  34: 'option_quiesce',
  38: 'option_onion_messages',
  44: 'option_channel_type',
  46: 'option_scid_alias',
  48: 'option_payment_metadata',
  50: 'option_zeroconf',
  148: 'trampoline_payment_prototype',
};

export type FeatureSupport = 'Mandatory' | 'Optional';

export interface FeatureSummary {
  activated: Record<string, FeatureSupport>;
  unknown: number[];
}

export function featureName(bit: number): string | undefined {
  return FEATURE_NAMES[bit - (bit % 2)];
}

/** Set bits of a big-endian bit field, lowest bit first. */
export function bitsFromBytes(bytes: Uint8Array): number[] {
  const bits: number[] = [];
  for (let i = 0; i < bytes.length * 8; i++) {
    if ((bytes[bytes.length - 1 - (i >> 3)] >> (i & 7)) & 1) bits.push(i);
  }
  return bits;
}

export function bitsFromWords(words: readonly number[]): number[] {
  const bits: number[] = [];
  for (let i = 0; i < words.length * 5; i++) {
    if ((words[words.length - 1 - Math.floor(i / 5)] >> (i % 5)) & 1) bits.push(i);
  }
  return bits;
}

export function wordsFromBits(bits: readonly number[]): number[] {
  if (bits.length === 0) return [];
  const words = new Array<number>(Math.floor(Math.max(...bits) / 5) + 1).fill(0);
  for (const bit of bits) words[words.length - 1 - Math.floor(bit / 5)] |= 1 << (bit % 5);
  return words;
}

/** Even bits that are set but that this codec does not know: the "it's ok to be odd" rule rejects them. */
export function unknownRequiredBits(bits: readonly number[]): number[] {
  return bits.filter((bit) => bit % 2 === 0 && featureName(bit) === undefined);
}

export function summarizeFeatures(bits: readonly number[]): FeatureSummary {
  const activated: Record<string, FeatureSupport> = {};
  const unknown: number[] = [];
  for (const bit of bits) {
    const name = featureName(bit);
    if (name === undefined) unknown.push(bit);
    else activated[name] = bit % 2 === 0 ? 'Mandatory' : 'Optional';
  }
  return { activated, unknown };
}
