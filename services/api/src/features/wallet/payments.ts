import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_TIMESTAMP_MS, Offset, commonErrors } from '../../http/schemas.js';
import { nodeOf, walletUnlocked, walletErrors } from './access.js';
import { atNode } from './node-failures.js';
import { incomingView, outgoingView } from './records.js';
import { IncomingSchema, OutgoingSchema, UnknownPayment } from './schemas.js';

const Hex64 = Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: '32 bytes, hex' });
const HashParams = Type.Object({ paymentHash: Hex64 });
const ListQuery = {
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS, description: 'ms since epoch, inclusive (default 0)' })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS, description: 'ms since epoch, inclusive (default now)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  offset: Type.Optional(Offset()),
  all: Type.Optional(Type.Boolean({ default: false, description: 'incoming: also unpaid and expired invoices; outgoing: also failed and pending' })),
};

/** The wallet's payment history (seed 000, Wallet): what the node received and sent, admin only and unlocked. */
export default async function walletPaymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const node = nodeOf(app);
  const unlocked = walletUnlocked(app);

  app.get('/wallet/payments/incoming', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Received payments (all=true: every invoice)',
      description: 'status: RECEIVED (paid), PENDING (unpaid, still payable), EXPIRED (unpaid, past expiry); the last two only with all=true.',
      querystring: Type.Object({ ...ListQuery, externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) }),
      response: { 200: Type.Array(IncomingSchema), 400: Type.Ref('ValidationFailed'), ...walletErrors },
    },
  }, async (request) => {
    const list = await atNode(() => node().listIncoming(request.query));
    return list.map(incomingView);
  });

  app.get('/wallet/payments/incoming/:paymentHash', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: { tags: ['wallet'], summary: 'One incoming payment by hash', params: HashParams, response: { 200: IncomingSchema, 400: commonErrors[400], 404: UnknownPayment, ...walletErrors } },
  }, async (request) => incomingView(await atNode(() => node().getIncoming(request.params.paymentHash.toLowerCase()))));

  app.get('/wallet/payments/outgoing', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Sent payments (all=true: also failed and pending)',
      description: 'Records {paymentId, kind, paymentHash, txId, amountSat, feesSat, invoice, createdAt, completedAt, status: SENT | FAILED | PENDING}.',
      querystring: Type.Object(ListQuery), response: { 200: Type.Array(OutgoingSchema), 400: Type.Ref('ValidationFailed'), ...walletErrors },
    },
  }, async (request) => (await atNode(() => node().listOutgoing(request.query))).map(outgoingView));

  app.get('/wallet/payments/outgoing/:paymentId', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: { tags: ['wallet'], summary: 'One outgoing payment by id', params: Type.Object({ paymentId: Type.String({ format: 'uuid' }) }), response: { 200: OutgoingSchema, 400: commonErrors[400], 404: UnknownPayment, ...walletErrors } },
  }, async (request) => outgoingView(await atNode(() => node().getOutgoing(request.params.paymentId))));

  app.get('/wallet/payments/outgoingbyhash/:paymentHash', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: { tags: ['wallet'], summary: 'One outgoing payment by payment hash', params: HashParams, response: { 200: OutgoingSchema, 400: commonErrors[400], 404: UnknownPayment, ...walletErrors } },
  }, async (request) => outgoingView(await atNode(() => node().getOutgoingByHash(request.params.paymentHash.toLowerCase()))));
}
