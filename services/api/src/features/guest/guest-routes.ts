import { TICKET_STATUS, fromCents, lineClaims, notFound, ticket, ticketStream } from '@comanda/domain';
import type { ExchangeRates } from '@comanda/rates';
import { checkoutTicket } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Amount, commonErrors } from '../../http/schemas.js';
import { Strict, centsOf, jsonNumbers } from '../bills/money-input.js';
import { checkoutFailure, noNode } from '../bills/checkout-failures.js';
import { GuestBillSchema, guestBill } from './guest-bill.js';
import { guestLimiter } from './guest-limit.js';
import { priceShare } from './guest-share.js';
import { ticketOfToken } from './guest-token.js';

const TokenParams = Type.Object({ token: Type.String({ description: "the bill's guest token (a secret: the link on the bill's QR)" }) });
// The API's own 404 (a bare JSON string, as the seed's): a guest's token is told apart from nothing else.
const Unknown = Type.Literal('Resource not found', { description: 'Bare JSON string: an unknown token, one of no bill, or a link run out (30 minutes after the bill was paid or cancelled)' });
const Limited = Type.Ref('Message', { description: 'Too many requests from this address (Retry-After says when to try again)' });
const iso = (ms: number) => new Date(ms).toISOString();

const GuestInvoice = Type.Object({
  invoice: Type.String({ description: 'BOLT11' }), payment_hash: Type.String(), amount_sat: Type.Integer(),
  rate: Type.Number({ description: 'fiat per BTC, locked for the life of the invoice' }), expires_at: Type.String({ format: 'date-time' }),
  amount: Type.Number({ description: 'the share of the bill, priced by the server' }), tip: Type.Number(), currency: Type.String(),
});

const GuestPayment = Type.Object({
  status: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('expired'), Type.Literal('withdrawn')], {
    description: "withdrawn: not paid, and the bill has nothing left to pay (another guest or the waiter paid it): the page takes the invoice away; paid anyway, the over-payment rule holds it for the restaurant",
  }), expires_at: Type.String({ format: 'date-time' }),
  amount: Type.Number({ description: 'the share of the bill: the invoice\'s until paid, then what the bill took of it' }), tip: Type.Number(),
  held: Type.Number({ description: 'paid beyond the bill and the tip (the bill was paid meanwhile): held for the restaurant to give back' }),
  amount_sat: Type.Integer({ description: 'the invoice\'s sats until paid, then the sats received' }),
  paid_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  line_ids: Type.Array(Type.String(), { description: '"my items": the lines it pays; empty for any other share' }),
}, { description: "A guest's invoice on this bill; once paid, the guest's receipt" });

/** The public routes behind a bill's QR (issue 63): no sign-in; the token names the bill and nothing else. */
export default async function guestRoutes(fastify: FastifyInstance, options: { rates: ExchangeRates; key: string }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = app.deps;
  const limit = guestLimiter(() => app.now());
  // Counted per address before anything is read; an unknown token answers like a run-out one.
  const ticketOf = (request: FastifyRequest, token: string): string => {
    limit(request.ip);
    const id = ticketOfToken(options.key, token);
    if (!id) throw notFound();
    return id;
  };

  app.get('/guest/:token', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['guest'], summary: "A bill as its guests see it through the link on its QR",
      params: TokenParams, response: { 200: GuestBillSchema, 404: Unknown, 429: Limited },
    },
  }, async (request) => {
    const ticketId = ticketOf(request, request.params.token);
    // Which lines guests' "my items" hold is the ticket stream's (its invoices), read as the checkout reads it.
    const { lightning } = (await app.deps.commands.state(ticket, ticketStream(ticketId))).state;
    return (await guestBill(app.deps.readStore, config, ticketId, app.now(), lineClaims(lightning, app.now()))).bill;
  });

  app.post('/guest/:token/lightning', {
    config: { permission: 'anyone' },
    preValidation: [jsonNumbers('tip', 'tip_percent', 'guests')],
    schema: {
      tags: ['guest'], summary: "A guest's share of the bill as a Lightning invoice at a locked rate",
      description: 'The server prices the share: the whole remainder (`all`), one of `guests` even shares of the bill, or the part of the chosen lines (`lines`; never more than remains), plus a tip (`tip_percent` of the share, or `tip` of the guest\'s own). The invoice is the bill\'s Lightning checkout (same rate, expiry and over-payment rule); two guests asking the same remainder and tip get the same invoice, so it is paid once.',
      params: TokenParams,
      body: Strict({
        share: Type.Union([Type.Literal('all'), Type.Literal('even'), Type.Literal('lines')], { description: 'all: the remainder; even: one of `guests` shares; lines: "my items" (`line_ids`)' }),
        line_ids: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 200, description: 'my items: lines of this bill, refused (409) when another guest paid or is paying one' })),
        guests: Type.Optional(Type.Integer({ minimum: 2, maximum: 30, description: 'even share: how many guests split the bill' })),
        tip_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
        tip: Type.Optional(Amount('a tip of the guest\'s own: zero or more, two decimals at most, and at most the bill\'s total before tips (400 above it)')),
      }),
      response: {
        201: GuestInvoice, 400: commonErrors[400], 404: Unknown, 429: Limited,
        409: Type.Ref('Message', { description: 'The bill is paid or cancelled, nothing is left to pay, or one of the items is paid or being paid by another guest' }),
        502: Type.Ref('Message'), 503: Type.Ref('Message', { description: 'No fresh exchange rate, or the Lightning node is unavailable' }),
      },
    },
  }, async (request, reply) => {
    const ticketId = ticketOf(request, request.params.token);
    const [tipCents] = centsOf([['tip', request.body.tip, 0]]);
    const view = await guestBill(app.deps.readStore, config, ticketId, app.now());
    const { share, guests, tip_percent: tipPercent } = request.body;
    const priced = priceShare(view, {
      share, ...(guests === undefined ? {} : { guests }), ...(request.body.line_ids === undefined ? {} : { lineIds: request.body.line_ids }), ...(tipPercent === undefined ? {} : { tipPercent }),
      ...(request.body.tip === undefined ? {} : { tipCents: tipCents! }),
    });
    if (!app.deps.node) throw noNode();
    const deps = {
      commands: app.deps.commands, now: () => app.now(), rates: options.rates, node: app.deps.node,
      settings: { expiryS: config.checkoutExpiryS, excess: config.lightningExcess },
    };
    let checkout;
    try {
      const ask = { ...priced, byGuest: true, ...(request.body.line_ids ? { lineIds: request.body.line_ids } : {}) };
      checkout = await checkoutTicket(deps, ticketId, ask, { userId: null, correlationId: request.id });
    } catch (error) {
      throw checkoutFailure(error, request.log);
    }
    const { invoice: i, currency, position } = checkout;
    if (position !== null) await app.readYourWrite(position);
    return reply.code(201).send({
      invoice: i.invoice, payment_hash: i.paymentHash, amount_sat: i.amountSat, rate: Number(i.rate), expires_at: iso(i.expiresAt),
      amount: fromCents(i.billCents), tip: fromCents(i.tipCents), currency,
    });
  });

  app.get('/guest/:token/payments/:hash', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['guest'], summary: "Whether a guest's invoice on this bill is paid",
      params: Type.Object({ token: TokenParams.properties.token, hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
      response: { 200: GuestPayment, 400: commonErrors[400], 404: Unknown, 429: Limited },
    },
  }, async (request) => {
    const ticketId = ticketOf(request, request.params.token);
    await guestBill(app.deps.readStore, config, ticketId, app.now()); // 404 once the link has run out
    const t = (await app.deps.commands.state(ticket, ticketStream(ticketId))).state;
    const invoice = t.lightning.invoices[request.params.hash];
    if (!invoice) throw notFound();
    // Once paid, the guest's receipt: the payment as the bill recorded it (its share, tip and sats received).
    const paid = Object.values(t.payments).find((p) => p.details.method === 'lightning' && p.details.paymentHash === invoice.paymentHash);
    // The node cannot cancel an invoice (its API has no such call): a guest whose share another paid is told not to pay it.
    const settled = t.status !== TICKET_STATUS.pending;
    const status = t.lightning.received[invoice.paymentHash] ? 'paid' : app.now() >= invoice.expiresAt ? 'expired' : settled ? 'withdrawn' : 'open';
    return {
      status, expires_at: iso(invoice.expiresAt), amount: fromCents(paid?.amountCents ?? invoice.billCents), tip: fromCents(paid?.tipCents ?? invoice.tipCents),
      held: fromCents(paid?.overpaidCents ?? 0), amount_sat: paid?.details.method === 'lightning' ? paid.details.sats : invoice.amountSat,
      paid_at: paid ? iso(paid.takenAt) : null, line_ids: invoice.lineIds ?? [],
    };
  });
}
