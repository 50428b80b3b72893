import { DecodeError, NodeError, decodeBolt11, invoiceExpiresAtMs, type NodeClient } from '@comanda/lightning';
import { STAFF_STREAM, newId, roster, walletActivity, walletLogStream, type WalletActivityEvent } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { payFromWallet, type PaymentAttempt } from '@comanda/workflows';
import { LoginThrottle } from '../../auth/throttle.js';
import { hashSecret, verifySecret } from '../../auth/pin.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { atNode, paymentFailed } from './node-failures.js';
import { feesSat } from './records.js';
import { BalanceSchema, NodeInfoSchema } from './schemas.js';
import { Headers, withHeaders } from '../../http/schemas.js';
import { TooMany, tooManyAttempts } from '../staff/sessions.js';
import { WALLET_COOKIE, nodeOf, walletUnlocked, walletErrors } from './access.js';

export const WALLET_TTL_S = 5 * 60;
const MAX_SAT = 9_007_199_254_740; // where msat stop being exact integers

const Sat = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_SAT, description });
const paymentErrors = {
  400: Type.Object({ message: Type.String(), reason: Type.Optional(Type.String()) }, { description: 'invalid input, invalid invoice, or the node refused: {message, reason}' }),
  402: Type.Object({ message: Type.String(), reason: Type.String() }, { description: 'insufficient funds' }),
  409: Type.Object({ message: Type.String(), reason: Type.Optional(Type.String()) }, { description: 'invoice already paid; Idempotency-Key reused; or the outcome of this key is still unknown' }),
  410: Type.Object({ message: Type.String(), reason: Type.String() }, { description: 'invoice expired' }),
};
const PaymentResult = Type.Object({
  recipientAmountSat: Type.Integer(), routingFeeSat: Type.Integer(), paymentId: Type.String(), paymentHash: Type.String(), paymentPreimage: Type.String(),
});
const IDEMPOTENT = 'Accepts Idempotency-Key: a retry with the same key never pays twice; it answers the first outcome, or reconciles with the node when the first attempt ended without an answer.';

/**
 * The wallet endpoints (seed 000, Wallet): a thin front of the restaurant's Lightning node. Admin only,
 * and unlocked for five minutes by POST /wallet/auth, except createinvoice (any member of staff). The
 * payment history is in `wallet-payments.ts`.
 */
export default async function walletRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const throttle = new LoginThrottle(app.deps.attempts, 'wallet', app.now);
  const decoyHash = await hashSecret('decoy', app.deps.masterKey, '\u0000decoy');
  const walletDeps = { commands: app.deps.commands, now: app.now, sending: new Set<string>() };
  /** Pays through the wallet workflow; the node's failures become HTTP answers. */
  const pay = <A>(attempt: PaymentAttempt<A>, request: FastifyRequest) => atNode(() => payFromWallet(walletDeps, attempt, writeContext(request)));

  const node = nodeOf(app);
  const audit = (request: FastifyRequest, event: WalletActivityEvent) =>
    app.deps.commands.handle(walletActivity, walletLogStream(event.data.userId), { type: 'recordActivity', event }, { userId: event.data.userId, correlationId: request.id });
  const unlocked = walletUnlocked(app);

  app.post('/wallet/auth', {
    config: { permission: 'wallet:admin' },
    schema: {
      tags: ['wallet'],
      summary: 'Unlock the wallet with the wallet password',
      description: 'Sets the HttpOnly, SameSite=Strict cookie walletAccessToken (5 minutes, Path=/), bound to the signed-in admin. Five consecutive failures lock the admin at that address as login does: 429 with Retry-After.',
      body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 256 }) }),
      response: {
        200: withHeaders(Type.Object({ message: Type.Literal('Login successful'), walletTokenExpiresAt: Type.Integer({ description: 'ms since epoch' }) }), Headers.setCookie),
        401: Type.Ref('Message', { description: "{message:'Invalid credentials'}" }),
        429: withHeaders(TooMany, Headers.retryAfter),
      },
    },
  }, async (request, reply) => {
    const userId = request.staff!.id;
    const wait = await throttle.admit(request.ip, userId);
    if (wait > 0) return tooManyAttempts(reply, wait);
    const { password } = request.body;
    const { state } = await app.deps.commands.state(roster, STAFF_STREAM);
    const member = state.members[userId];
    const hash = member?.walletPasswordHash;
    const ok = await verifySecret(password, app.deps.masterKey, hash ? member.name : '\u0000decoy', hash ?? decoyHash);
    if (!member || !hash || !ok) {
      await audit(request, { type: 'WalletUnlockFailed', data: { userId, at: app.now() } });
      return reply.code(401).send({ message: 'Invalid credentials' });
    }
    await throttle.succeed(request.ip, userId);
    // The unlock is recorded before the token exists: a token always names an unlock in the log.
    const sessionId = newId();
    const at = app.now();
    const expiresAt = at + WALLET_TTL_S * 1000;
    await audit(request, { type: 'WalletUnlocked', data: { userId, at, sessionId, expiresAt } });
    app.setAuthCookie(request, reply, WALLET_COOKIE, app.signToken({ sub: userId, typ: 'wallet', wid: sessionId }, WALLET_TTL_S), WALLET_TTL_S);
    return { message: 'Login successful', walletTokenExpiresAt: expiresAt };
  });

  app.post('/wallet/logout', {
    config: { permission: 'wallet:admin' },
    schema: { tags: ['wallet'], summary: 'Lock the wallet', description: 'Clears walletAccessToken (same Path as set) and closes every open unlock of this admin on the server: an old walletAccessToken is refused (401) from this moment on, on every replica.', response: { 200: withHeaders(Type.Object({ status: Type.Literal('ok') }), Headers.setCookie) } },
  }, async (request, reply) => {
    app.clearAuthCookie(request, reply, WALLET_COOKIE);
    await audit(request, { type: 'WalletLocked', data: { userId: request.staff!.id, at: app.now() } });
    return { status: 'ok' as const };
  });

  app.get('/wallet/getinfo', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: { tags: ['wallet'], summary: 'Node id, channels, chain, block height and node version', response: { 200: NodeInfoSchema, ...walletErrors } },
  }, async () => {
    const info = await atNode(() => node().getInfo());
    return { nodeId: info.nodeId, channels: info.channels, chain: info.chain ?? null, blockHeight: info.blockHeight ?? null, version: info.version ?? null };
  });

  app.get('/wallet/getbalance', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: { tags: ['wallet'], summary: 'Spendable balance and fee credit', response: { 200: BalanceSchema, ...walletErrors } },
  }, async () => {
    const { balanceSat, feeCreditSat } = await atNode(() => node().getBalance());
    return { balanceSat, feeCreditSat };
  });

  app.post('/wallet/createinvoice', {
    config: { permission: 'wallet:invoice' },
    schema: {
      tags: ['wallet'],
      summary: 'Create a BOLT11 invoice (any member of staff)',
      description: 'externalId links the payment to an order: when it is an order id, the payment is recorded on that order when it arrives. expirySeconds 60–86400 (default 3600).',
      body: Type.Object({
        description: Type.String({ maxLength: 128 }),
        amountSat: Sat('amount to pay, sat'),
        externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        expirySeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400, default: 3600 })),
      }),
      response: { 200: Type.Object({ amountSat: Type.Integer(), paymentHash: Type.String(), serialized: Type.String() }), 503: walletErrors[503], 502: walletErrors[502] },
    },
  }, async (request) => {
    const body = request.body;
    const expirySeconds = body.expirySeconds ?? 3600;
    const invoice = await atNode(() => node().createInvoice({ ...body, expirySeconds }));
    const userId = request.staff!.id;
    await audit(request, {
      type: 'WalletInvoiceCreated',
      data: { userId, paymentHash: invoice.paymentHash, amountSat: body.amountSat, description: body.description, externalId: body.externalId ?? null, expirySeconds, at: app.now() },
    });
    return { amountSat: invoice.amountSat ?? body.amountSat, paymentHash: invoice.paymentHash, serialized: invoice.serialized };
  });

  /** Answer of a Lightning payment; a replay asks the node for the preimage it keeps. */
  const lightningAnswer = async (outcome: Record<string, string | number>, preimage?: string) => ({
    recipientAmountSat: Number(outcome.recipientAmountSat),
    routingFeeSat: Number(outcome.routingFeeSat),
    paymentId: String(outcome.paymentId),
    paymentHash: String(outcome.paymentHash),
    paymentPreimage: preimage ?? (await atNode(() => node().getOutgoing(String(outcome.paymentId)))).preimage ?? '',
  });
  const fingerprint = (request: FastifyRequest) => writeContext(request).idempotency?.fingerprint ?? '';

  app.post('/wallet/payinvoice', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Pay a BOLT11 invoice', description: IDEMPOTENT,
      body: Type.Object({ amountSat: Type.Optional(Sat('amount for an amountless invoice; default the invoice amount')), invoice: Type.String({ minLength: 1, maxLength: 8192 }) }),
      response: { 200: PaymentResult, ...paymentErrors, ...walletErrors },
    },
  }, async (request) => {
    const body = request.body;
    let paymentHash: string;
    try {
      const decoded = decodeBolt11(body.invoice.trim());
      paymentHash = decoded.paymentHash;
      if (invoiceExpiresAtMs(decoded) <= app.now()) throw paymentFailed('expired', 'the invoice has expired');
    } catch (error) {
      if (error instanceof DecodeError) throw paymentFailed('invalid', error.message);
      throw error;
    }
    const paymentId = newResourceId(request, 'walletpayment');
    return pay({
      paymentId,
      request: { kind: 'invoice', by: request.staff!.id, target: body.invoice.trim(), paymentHash, fingerprint: fingerprint(request), ...(body.amountSat ? { amountSat: body.amountSat } : {}) },
      send: async () => {
        const r = await node().payInvoice({ invoice: body.invoice.trim(), amountSat: body.amountSat });
        return { outcome: { paymentId: r.paymentId, paymentHash: r.paymentHash, recipientAmountSat: r.recipientAmountSat, routingFeeSat: r.routingFeeSat }, preimage: r.paymentPreimage };
      },
      reconcile: async () => {
        try {
          const sent = await node().getOutgoingByHash(paymentHash);
          if (sent.isPaid) return { paymentId: sent.paymentId, paymentHash, recipientAmountSat: sent.sent - feesSat(sent), routingFeeSat: feesSat(sent) };
          return sent.completedAt ? 'not_sent' : 'pending';
        } catch (error) {
          if (error instanceof NodeError && error.status === 404) return 'not_sent';
          throw error;
        }
      },
      answer: lightningAnswer,
    }, request);
  });

  app.post('/wallet/payoffer', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Pay a BOLT12 offer', description: `${IDEMPOTENT} An offer has no payment hash before it is paid, so an unfinished attempt is not reconciled: 409 until checked by hand.`,
      body: Type.Object({ amountSat: Type.Optional(Sat('amount; required when the offer has none')), offer: Type.String({ minLength: 1, maxLength: 8192 }), message: Type.Optional(Type.String({ maxLength: 128 })) }),
      response: { 200: PaymentResult, ...paymentErrors, ...walletErrors },
    },
  }, async (request) => {
    const body = request.body;
    return pay({
      paymentId: newResourceId(request, 'walletpayment'),
      request: { kind: 'offer', by: request.staff!.id, target: body.offer, fingerprint: fingerprint(request), ...(body.amountSat ? { amountSat: body.amountSat } : {}) },
      send: async () => {
        const r = await node().payOffer(body);
        return { outcome: { paymentId: r.paymentId, paymentHash: r.paymentHash, recipientAmountSat: r.recipientAmountSat, routingFeeSat: r.routingFeeSat }, preimage: r.paymentPreimage };
      },
      answer: lightningAnswer,
    }, request);
  });

  /** Mining fee of an on-chain transaction, from the node's outgoing record for that txId. */
  const feesOfTx = async (client: NodeClient, txId: string): Promise<number> => {
    const records = await client.listOutgoing({ all: true, limit: 1000 });
    const record = records.find((r) => r.txId === txId);
    return record ? feesSat(record) : 0;
  };

  app.post('/wallet/payonchain', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Send to a Bitcoin address (node sendtoaddress)', description: `${IDEMPOTENT} feesSat comes from the node's outgoing record for the transaction.`,
      body: Type.Object({ amountSat: Sat('amount sent'), address: Type.String({ minLength: 1, maxLength: 128 }), feerateSatByte: Type.Integer({ minimum: 1, maximum: 100_000 }) }),
      response: { 200: Type.Object({ txId: Type.String(), amountSat: Type.Integer(), feesSat: Type.Integer() }), ...paymentErrors, ...walletErrors },
    },
  }, async (request) => {
    const body = request.body;
    return pay({
      paymentId: newResourceId(request, 'walletpayment'),
      request: { kind: 'onchain', by: request.staff!.id, amountSat: body.amountSat, target: body.address, feerateSatByte: body.feerateSatByte, fingerprint: fingerprint(request) },
      send: async () => {
        const client = node();
        const txId = await client.sendToAddress(body);
        // The transaction is sent: failing to read its fee must not turn a payment into an error.
        const fees = await feesOfTx(client, txId).catch(() => 0);
        return { outcome: { txId, amountSat: body.amountSat, feesSat: fees } };
      },
      answer: async (o) => ({ txId: String(o.txId), amountSat: Number(o.amountSat), feesSat: Number(o.feesSat) }),
    }, request);
  });

  app.post('/wallet/bumpfee', {
    config: { permission: 'wallet:admin' },
    onRequest: unlocked,
    schema: {
      tags: ['wallet'], summary: 'Raise the feerate of unconfirmed transactions (CPFP)', description: `The body is a bare JSON integer: the new feerate in sat/vbyte. ${IDEMPOTENT}`,
      body: Type.Integer({ minimum: 1, maximum: 100_000, description: 'feerate, sat/vbyte' }),
      response: { 200: Type.Object({ txId: Type.String(), newFeerateSatByte: Type.Integer(), additionalFeesSat: Type.Integer() }), ...paymentErrors, ...walletErrors },
    },
  }, async (request) => {
    const feerateSatByte = request.body;
    return pay({
      paymentId: newResourceId(request, 'walletpayment'),
      request: { kind: 'bumpfee', by: request.staff!.id, feerateSatByte, fingerprint: fingerprint(request) },
      send: async () => {
        const client = node();
        const txId = await client.bumpFee(feerateSatByte);
        const fees = await feesOfTx(client, txId).catch(() => 0);
        return { outcome: { txId, newFeerateSatByte: feerateSatByte, additionalFeesSat: fees } };
      },
      answer: async (o) => ({ txId: String(o.txId), newFeerateSatByte: Number(o.newFeerateSatByte), additionalFeesSat: Number(o.additionalFeesSat) }),
    }, request);
  });
}
