import { CURRENCIES, fromCents, notFound } from '@comanda/domain';
import type { ExchangeRates } from '@comanda/rates';
import { checkoutTicket } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Amount, IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';
import { Strict, centsOf, jsonNumbers } from './money-input.js';
import { checkoutFailure, noNode } from './checkout-failures.js';

const Unavailable = Type.Ref('Message', { description: "{message:'No exchange rate available'} (no fresh rate), or {message:'Lightning node unavailable'}" });

const CheckoutAnswer = Type.Object({
  invoice: Type.String({ description: 'BOLT11' }),
  payment_hash: Type.String(),
  amount_sat: Type.Integer({ description: 'fiat_due at the rate, rounded up to the sat' }),
  rate: Type.Number({ description: 'fiat per BTC, locked for the life of the invoice' }),
  rate_source: Type.String(),
  rate_at: Type.String({ format: 'date-time', description: 'when the rate was quoted' }),
  expires_at: Type.String({ format: 'date-time' }),
  fiat_due: Type.Number({ description: 'what the invoice asks in the ticket currency: the due plus the tip' }),
  tip: Type.Number(),
  currency: Type.String({ description: 'acronym of the ticket currency' }),
  ticket_id: Type.String(),
});

const RateRow = Type.Object({
  currency: Type.String(), currency_id: Type.String(),
  rate: Type.Union([Type.Number(), Type.Null()], { description: 'fiat per BTC; null when none was ever had' }),
  source: Type.String(), at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  age_s: Type.Union([Type.Integer(), Type.Null()]),
  fresh: Type.Boolean({ description: 'young enough for checkout (COMANDA_RATE_MAX_AGE_S)' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'the last failure asking the provider' }),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** Exchange rates and Lightning checkout of a ticket (issue 13). */
export default async function lightningCheckoutRoutes(fastify: FastifyInstance, options: { rates: ExchangeRates }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { rates } = options;
  const { config } = app.deps;

  app.get('/currencies/rates', {
    config: { permission: 'currencies:read' },
    schema: {
      tags: ['currencies'], summary: 'The exchange rates Lightning checkout uses: rate, source and age',
      description: `Fiat per BTC for each fiat currency, from COMANDA_RATE_SOURCE (${config.rateSource} here). A rate older than COMANDA_RATE_MAX_AGE_S is shown with fresh=false and is not used.`,
      response: { 200: Type.Array(RateRow), 401: commonErrors[401], 403: commonErrors[403] },
    },
  }, async () => {
    const fiat = Object.values(CURRENCIES).filter((c) => c.acronym !== 'BTC');
    const status = await rates.status(fiat.map((c) => c.acronym));
    return status.map((s, i) => ({
      currency: s.currency, currency_id: fiat[i]!.id, rate: s.quote ? Number(s.quote.rate) : null, source: s.quote?.source ?? rates.source,
      at: s.quote ? iso(s.quote.at) : null, age_s: s.ageMs === null ? null : Math.floor(s.ageMs / 1000), fresh: s.fresh, error: s.lastError,
    }));
  });

  app.post('/tickets/:id/lightning', {
    config: { permission: 'bills:write' },
    // The body is optional (a plain checkout sends none): an absent one is read as {}.
    preValidation: [async (request) => void (request.body ??= {}), jsonNumbers('tip', 'amount')],
    schema: {
      tags: ['tickets'], summary: 'Check out a ticket by Lightning: an invoice for its due (plus a tip) at a locked rate',
      description: 'The due plus the tip, converted at a fresh rate and rounded up to the sat; the invoice expires after COMANDA_CHECKOUT_EXPIRY_S and carries the ticket id as externalId. Asked again while that invoice is unexpired and unpaid (same due and tip), the same invoice comes back (200); otherwise a new one at the current rate (201). 503 when no fresh rate is available (never a 0- or 1-sat invoice) or the node does not answer.',
      params: IdParams, body: Strict({
        tip: Type.Optional(Amount('on top of the due, two decimals at most')),
        amount: Type.Optional(Amount('only this part of the due (a guest paying a share); default the whole due')),
      }, { description: 'optional: no body is read as {}' }),
      response: {
        200: CheckoutAnswer, 201: CheckoutAnswer, ...commonErrors,
        409: Type.Ref('Message', { description: 'The ticket is paid or cancelled, nothing is due, or the amount exceeds the due' }),
        502: Type.Ref('Message', { description: 'The Lightning node refused the credentials or failed' }),
        503: Unavailable,
      },
    },
  }, async (request, reply) => {
    const [tipCents, amountCents] = centsOf([['tip', request.body.tip, 0], ['amount', request.body.amount, 1]]);
    if (!app.deps.node) throw noNode();
    const deps = {
      commands: app.deps.commands, now: () => app.now(), rates, node: app.deps.node,
      settings: { expiryS: config.checkoutExpiryS, excess: config.lightningExcess },
    };
    let checkout;
    try {
      const ask = { tipCents: tipCents!, ...(request.body.amount === undefined ? {} : { amountCents: amountCents! }) };
      checkout = await checkoutTicket(deps, request.params.id, ask, writeContext(request));
    } catch (error) {
      throw checkoutFailure(error, request.log);
    }
    const { invoice: i, currency, position } = checkout;
    if (!i) throw notFound();
    if (position !== null) await app.readYourWrite(position);
    return reply.code(position === null ? 200 : 201).send({
      invoice: i.invoice, payment_hash: i.paymentHash, amount_sat: i.amountSat, rate: Number(i.rate), rate_source: i.rateSource,
      rate_at: iso(i.rateAt), expires_at: iso(i.expiresAt), fiat_due: fromCents(i.billCents + i.tipCents), tip: fromCents(i.tipCents),
      currency, ticket_id: request.params.id,
    });
  });
}
