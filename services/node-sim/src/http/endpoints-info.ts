import { chainByHash, chainByName, summarizeFeatures, type Bolt12Offer } from '@comanda/lightning';
import { capacityMsat } from '../channel.js';
import { msatToSat } from '../fees.js';
import type { SimNode } from '../node.js';
import { omitNulls } from '../records.js';
import { json, type Endpoint } from './endpoint.js';

export const infoEndpoints: Endpoint[] = [
  { path: '/getinfo', methods: ['GET'], handle: ({ node }) => json(node.info()) },
  { path: '/getbalance', methods: ['GET'], handle: ({ node }) => json(node.balance()) },
  { path: '/listchannels', methods: ['GET'], handle: ({ node }) => json(listChannels(node)) },
  {
    path: '/estimateliquidityfees',
    // The seed documents POST, the real node serves GET: both work.
    methods: ['GET', 'POST'],
    handle: ({ node, params }) => json(node.estimateLiquidityFees(params.amountSat('amountSat'))),
  },
  {
    path: '/decodeinvoice',
    methods: ['POST'],
    handle: ({ params }) => {
      const i = params.invoice('invoice');
      return json(
        omitNulls({
          chain: i.chain,
          amount: i.amountMsat,
          paymentHash: i.paymentHash,
          description: i.description,
          descriptionHash: i.descriptionHash,
          minFinalCltvExpiryDelta: i.minFinalCltvExpiryDelta,
          paymentSecret: i.paymentSecret,
          paymentMetadata: i.paymentMetadata,
          expirySeconds: i.expirySeconds,
          extraHops: i.routeHints.map((hops) => hops.map(({ feeBaseMsat, ...hop }) => ({ ...hop, feeBase: feeBaseMsat }))),
          features: summarizeFeatures(i.featureBits),
          timestampSeconds: i.timestampSeconds,
        }),
      );
    },
  },
  { path: '/decodeoffer', methods: ['POST'], handle: ({ params }) => json(offerJson(params.offer('offer'))) },
];

function offerJson(o: Bolt12Offer): Record<string, unknown> {
  const chainHashes = o.chainHashes ?? [];
  const chain = chainHashes.length === 0 ? 'mainnet' : (chainByHash(chainHashes[0])?.name ?? chainHashes[0]);
  return omitNulls({
    chain,
    chainHashes: o.chainHashes,
    amount: o.amount,
    currency: o.currency,
    description: o.description,
    issuer: o.issuer,
    issuerId: o.issuerId,
    quantityMax: o.quantityMax,
    absoluteExpirySeconds: o.absoluteExpirySeconds,
    path: o.paths?.map((p) => ({
      introductionNodeId: p.introductionNode,
      blindingKey: p.blindingKey,
      blindedNodes: p.blindedNodes,
    })),
    features: o.featureBits === undefined ? undefined : summarizeFeatures(o.featureBits),
  });
}

/** The channel as the real node's listchannels prints it (the parts the seed names). */
function listChannels(node: SimNode): unknown[] {
  const c = node.state.channel;
  if (!c) return [];
  const capacitySat = msatToSat(capacityMsat(c));
  return [
    {
      type: c.state,
      commitments: {
        params: {
          channelId: c.channelId,
          channelConfig: ['funding_pubkey_based_channel_keypath'],
          channelFeatures: ['option_static_remotekey', 'option_anchors_zero_fee_htlc_tx', 'option_dual_fund', 'option_zeroconf'],
          localParams: {
            nodeId: node.nodeId,
            fundingKeyPath: "m/1'",
            dustLimit: 546,
            maxHtlcValueInFlightMsat: capacitySat * 1000,
            htlcMinimum: 1,
            toSelfDelay: 144,
            maxAcceptedHtlcs: 100,
            isInitiator: true,
          },
          remoteParams: { nodeId: node.ctx.lspNodeId, dustLimit: 546, maxHtlcValueInFlightMsat: capacitySat * 1000, htlcMinimum: 1 },
          channelFlags: { announceChannel: false, nonInitiatorPaysCommitFees: true },
        },
        active: [{ fundingTxId: c.fundingTxId, fundingAmount: capacitySat, localCommit: { spec: { toLocal: c.balanceMsat, toRemote: c.inboundMsat } } }],
      },
      shortChannelId: c.shortChannelId,
      channelUpdate: {
        signature: '00'.repeat(64),
        chainHash: chainByName(node.ctx.chainName)?.chainHash,
        shortChannelId: c.shortChannelId,
        timestampSeconds: Math.floor(node.state.openedAt / 1000),
        messageFlags: 1,
        channelFlags: 1,
        cltvExpiryDelta: 144,
        htlcMinimumMsat: 1,
        feeBaseMsat: 1000,
        feeProportionalMillionths: 100,
        htlcMaximumMsat: capacitySat * 1000,
      },
    },
  ];
}
