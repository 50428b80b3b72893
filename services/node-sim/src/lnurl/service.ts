import type { FastifyInstance } from 'fastify';
import { DecodeError, decodeBolt11, encodeLnurl, verifyDigestDer } from '@comanda/lightning';
import { sha256Hex } from '../keys.js';
import type { SimNode } from '../node.js';
import { payInvoice } from '../payments.js';
import { randomHex } from '../runtime.js';

// The service side of LNURL that each simulated node serves without authentication, as a public
// LNURL server would: LUD-16 pay for its lightning address, LUD-03 withdraw links, LUD-04 login.

const MIN_SENDABLE_MSAT = 1000;
const COMMENT_ALLOWED = 128;

export function payMetadata(node: SimNode): string {
  const address = `${node.state.lnAddressUser}@${new URL(node.url).host}`;
  return JSON.stringify([
    ['text/plain', `Payment to ${address}`],
    ['text/identifier', address],
  ]);
}

/** Creates a single-use withdraw link and returns it as a bech32 LNURL. */
export function createWithdrawLink(node: SimNode, options: { minWithdrawableSat: number; maxWithdrawableSat: number; description?: string }): string {
  const k1 = randomHex(node.ctx.random, 32);
  node.state.withdrawLinks.push({
    k1,
    minWithdrawableMsat: options.minWithdrawableSat * 1000,
    maxWithdrawableMsat: options.maxWithdrawableSat * 1000,
    description: options.description ?? `Withdrawal from ${node.name}`,
  });
  node.ctx.changed();
  return encodeLnurl(`${node.url}/lnurlw/${k1}`);
}

/** Creates a login challenge: the LNURL to show, and k1 to look up who answered with {@link loggedInKey}. */
export function createLoginChallenge(node: SimNode): { lnurl: string; k1: string } {
  const k1 = randomHex(node.ctx.random, 32);
  node.state.loginChallenges.push({ k1, createdAt: node.ctx.clock.now() });
  node.ctx.changed();
  return { lnurl: encodeLnurl(`${node.url}/lnurl-auth?tag=login&k1=${k1}&action=login`), k1 };
}

/** The linking key that answered the challenge, once one has. */
export function loggedInKey(node: SimNode, k1: string): string | undefined {
  return node.state.loginChallenges.find((c) => c.k1 === k1)?.linkingKey;
}

type Query = Record<string, string | undefined>;
const error = (reason: string) => ({ status: 'ERROR', reason });

export function registerLnurlRoutes(app: FastifyInstance, node: SimNode): void {
  app.get<{ Params: { user: string } }>('/.well-known/lnurlp/:user', async (request, reply) => {
    if (request.params.user.toLowerCase() !== node.state.lnAddressUser) return reply.code(404).send(error('unknown user'));
    return {
      tag: 'payRequest',
      callback: `${node.url}/lnurlp/${node.state.lnAddressUser}/callback`,
      minSendable: MIN_SENDABLE_MSAT,
      maxSendable: maxReceivableMsat(node),
      metadata: payMetadata(node),
      commentAllowed: COMMENT_ALLOWED,
    };
  });

  app.get<{ Params: { user: string }; Querystring: Query }>('/lnurlp/:user/callback', async (request, reply) => {
    if (request.params.user.toLowerCase() !== node.state.lnAddressUser) return reply.code(404).send(error('unknown user'));
    const amount = Number(request.query.amount);
    if (!Number.isSafeInteger(amount) || amount < MIN_SENDABLE_MSAT || amount > maxReceivableMsat(node)) return error('invalid amount');
    const comment = request.query.comment;
    if (comment !== undefined && comment.length > COMMENT_ALLOWED) return error('comment is too long');
    const descriptionHash = sha256Hex(payMetadata(node));
    const invoice = node.createInvoice({ amountMsat: amount, descriptionHash, expirySeconds: 3600 });
    if (comment) node.incomingByHash(invoice.paymentHash)!.payerNote = comment;
    return { pr: invoice.serialized, routes: [] };
  });

  app.get<{ Params: { k1: string } }>('/lnurlw/:k1', async (request, reply) => {
    const link = node.state.withdrawLinks.find((l) => l.k1 === request.params.k1 && l.usedAt === undefined);
    if (!link) return reply.code(404).send(error('unknown or used withdraw link'));
    return {
      tag: 'withdrawRequest',
      callback: `${node.url}/lnurlw/${link.k1}/callback`,
      k1: link.k1,
      defaultDescription: link.description,
      minWithdrawable: link.minWithdrawableMsat,
      maxWithdrawable: link.maxWithdrawableMsat,
    };
  });

  app.get<{ Params: { k1: string }; Querystring: Query }>('/lnurlw/:k1/callback', async (request) => {
    const link = node.state.withdrawLinks.find((l) => l.k1 === request.params.k1 && l.k1 === request.query.k1);
    if (!link) return error('unknown withdraw link');
    if (link.usedAt !== undefined) return error('withdraw link already used');
    let invoice;
    try {
      invoice = decodeBolt11(request.query.pr ?? '');
    } catch (e) {
      return error(e instanceof DecodeError ? `invalid invoice: ${e.message}` : 'invalid invoice');
    }
    const amount = invoice.amountMsat ?? 0;
    if (amount < link.minWithdrawableMsat || amount > link.maxWithdrawableMsat) return error('amount out of bounds');
    // Marked used before paying, in the same synchronous step, so a replayed callback cannot pay twice.
    link.usedAt = node.ctx.clock.now();
    const result = payInvoice(node, invoice, amount);
    if (!result.ok) {
      link.usedAt = undefined;
      node.ctx.changed();
      return error(result.reason);
    }
    return { status: 'OK' };
  });

  app.get<{ Querystring: Query }>('/lnurl-auth', async (request) => {
    const { k1, sig, key } = request.query;
    const challenge = node.state.loginChallenges.find((c) => c.k1 === k1);
    if (!challenge || request.query.tag !== 'login') return error('unknown challenge');
    if (!sig || !key) return error('missing sig or key');
    if (!/^[0-9a-f]+$/i.test(sig) || !/^[0-9a-f]{66}$/i.test(key) || !verifyDigestDer(sig, challenge.k1, key)) return error('invalid signature');
    challenge.linkingKey = key.toLowerCase();
    node.ctx.changed();
    return { status: 'OK' };
  });
}

/** What the node can receive: its inbound liquidity, or the most one liquidity purchase allows. */
function maxReceivableMsat(node: SimNode): number {
  const inbound = node.state.channel?.state === 'Normal' ? node.state.channel.inboundMsat : 0;
  return Math.max(inbound, node.ctx.autoLiquiditySat * 1000, MIN_SENDABLE_MSAT);
}
