import { Type } from 'typebox';

/** The 200 answers of the wallet's reads, for the OpenAPI document and the serializer. */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const NodeInfoSchema = Type.Object({
  nodeId: Type.String(),
  channels: Type.Array(Type.Object({
    state: Type.String(), channelId: Type.String(), balanceSat: Type.Integer(), inboundLiquiditySat: Type.Integer(), capacitySat: Type.Integer(), fundingTxId: Type.String(),
  }, { additionalProperties: true })),
  chain: Nullable(Type.String()),
  blockHeight: Nullable(Type.Integer()),
  version: Nullable(Type.String()),
}, { description: "The restaurant node's identity and channels" });

export const BalanceSchema = Type.Object({
  balanceSat: Type.Integer({ description: 'spendable, sat' }),
  feeCreditSat: Type.Integer({ description: 'fee credit, sat' }),
});

export const IncomingSchema = Type.Object({
  paymentHash: Type.String(),
  amountSat: Nullable(Type.Integer()),
  receivedSat: Type.Integer(),
  description: Type.String(),
  externalId: Nullable(Type.String()),
  createdAt: Type.Integer({ description: 'ms since epoch' }),
  completedAt: Nullable(Type.Integer()),
  status: Type.Union([Type.Literal('RECEIVED'), Type.Literal('PENDING'), Type.Literal('EXPIRED')]),
}, { description: 'A payment received (or, with all=true, an invoice not paid yet)' });

export const OutgoingSchema = Type.Object({
  paymentId: Type.String(),
  kind: Type.String({ description: 'lightning, or the node’s sub-type (onchain, …)' }),
  paymentHash: Nullable(Type.String()),
  txId: Nullable(Type.String()),
  amountSat: Type.Integer(),
  feesSat: Type.Integer(),
  invoice: Nullable(Type.String()),
  createdAt: Type.Integer({ description: 'ms since epoch' }),
  completedAt: Nullable(Type.Integer()),
  status: Type.Union([Type.Literal('SENT'), Type.Literal('FAILED'), Type.Literal('PENDING')]),
}, { description: 'A payment the restaurant sent' });

/** 404 of a payment lookup the node does not know. */
export const UnknownPayment = Type.Ref('Message', { description: 'No such payment at the node' });
