import { MENU_STREAM, RATE_RULE, type TaxRateDetails, menu, ratePpmOfPercent, validationFailed } from '@comanda/domain';
import { TAX_RATES, type TaxRateView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { resourceReads } from '../../http/resource-reads.js';
import { storedAs } from '../../http/representation.js';
import { Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from '../../http/resources.js';
import { menuRemoval } from './menu-removal.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

const TaxRate = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), rate: Type.Number({ description: 'percent' }) }, {
  examples: [{ id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f', name: 'IVA', rate: 16 }],
});
const Body = Type.Object({
  name: PlaceName,
  rate: Type.Number({ minimum: 0, maximum: 100, description: 'percent, 0 to 100, at most four decimals (8.875 = 8.875 %)' }),
}, { examples: [{ name: 'IVA', rate: 16 }] });
const errors = { ...commonErrors, 409: Conflict('Another rate has this name (ignoring case), or categories or dishes still use it', { category_count: Type.Integer(), dish_count: Type.Integer() }), 412: Stale };

const view = (r: TaxRateView) => ({ id: r.id, name: r.name, rate: r.rate });

/** The rate in parts per million, exact: a percent with at most four decimals, as money has cents. */
function rateDetails(body: Static<typeof Body>): TaxRateDetails {
  const ratePpm = ratePpmOfPercent(body.rate);
  if (ratePpm === null) throw validationFailed([{ field: 'rate', message: RATE_RULE }]);
  return { name: body.name.trim(), ratePpm };
}

/** Tax rates: managers and admins write them, every role reads them. */
export default async function taxRateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['tax rates'];
  const { commands } = app.deps;

  resourceReads<TaxRateView>(app, { path: '/tax-rates', tags, plural: 'tax rates', permission: 'menu:read', collection: TAX_RATES, schema: TaxRate, view });

  app.post('/tax-rates', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Add a tax rate', description: 'Names are unique ignoring case (409). Categories (`tax_rate_id`) and dishes (overriding their category) name it.',
      headers: IdempotencyHeaders, body: Body,
      response: { 201: Type.Object({ id: Type.String({ format: 'uuid' }), message: Type.Literal('Tax rate added successfully') }), ...errors },
    },
  }, async (request, reply) => {
    const taxRateId = newResourceId(request, 'tax-rate');
    const result = await commands.handle(menu, MENU_STREAM, { type: 'createTaxRate', taxRateId, ...rateDetails(request.body) }, writeContext(request));
    await app.readYourWrite(result.position, `/tax-rates/${taxRateId}`);
    return reply.code(201).header('location', `/tax-rates/${taxRateId}`).send({ id: taxRateId, message: 'Tax rate added successfully' });
  });

  app.put('/tax-rates/:id', {
    config: { permission: 'menu:write' },
    preValidation: readOnlyFields(Body, storedAs(app, TAX_RATES, view)),
    schema: {
      tags, summary: 'Change a tax rate', description: 'Tickets already issued keep the rate they were issued at.',
      headers: IfMatchHeaders, params: IdParams, body: Body,
      response: { 200: Type.Object({ id: Type.String(), message: Type.Literal('Tax rate updated successfully') }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const result = await commands.handle(menu, MENU_STREAM, { type: 'changeTaxRate', taxRateId: id, ifMatch: ifMatch(request), ...rateDetails(request.body) }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Tax rate updated successfully' as const };
  });

  menuRemoval(app, {
    path: '/tax-rates', tags, permission: 'menu:write', errors, summary: 'Remove a tax rate',
    description: 'Refused with 409 while a category or dish names it (counted by category_count and dish_count).',
    command: (taxRateId) => ({ type: 'removeTaxRate', taxRateId }),
  });
}
