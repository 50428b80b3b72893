import { createHash } from 'node:crypto';
import { ALLERGENS, DESCRIPTION_MAX, type DishDetails, type DishNow, MENU_STREAM, businessDay, dishNow, fromCents, menu, menuClockKey, stockOn, toCents, validationFailed } from '@comanda/domain';
import { DISHES, type DishView, MENU_CLOCK, MENU_CLOCK_ID, type MenuClockView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { resourceReads } from '../../http/resource-reads.js';
import { paramOf } from '../../http/representation.js';
import { Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from '../../http/resources.js';
import { sendJsonString, sendNoContent } from '../../http/replies.js';
import { Headers, IdParams, Price, commonErrors, withHeaders } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

export const Dish = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  price: Type.Number({ description: 'Decimal number, at most two decimals' }),
  category_id: Type.String({ format: 'uuid' }),
  station_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: "Overrides the category's kitchen station; null: the category decides" }),
  modifier_group_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'the modifier groups a waiter chooses from for this dish' }),
  allergens: Type.Array(Type.Enum([...ALLERGENS]), { description: "of the EU's 14, in the list's order" }),
  tax_rate_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: "Overrides the category's tax rate; null: the category's" }),
  description: Type.String({ description: "What the menu tells a guest about it; '' for none" }),
  sold_out: Type.Boolean({ description: 'sold out today ("86"): ordering it is 409; set by PUT /dishes/{id}/stock' }),
  remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'portions left today; null: no count' }),
  available: Type.Optional(Type.Literal(false, { description: "present only while it is not served: its hours or its category's do not hold now (PUT /dishes/{id}/availability); ordering it is 409" })),
  available_from: Type.Optional(Type.String({ description: 'when it is next served, restaurant time ("12:00" today, "Tue 07:00"); present only while not served' })),
  hours: Type.Optional(Type.String({ description: 'when it is served ("Mon–Fri 07:00–11:30"; its category\'s hours, then its own); present only when it has hours' })),
  price_now: Type.Optional(Type.Number({ description: 'present only while a price level sets it (GET /price-levels): the price an order takes now; absent: price' })),
  price_level: Type.Optional(Type.String({ description: 'the price level that sets price_now, by name; present only then' })),
  archived: Type.Optional(Type.Literal(true, { description: 'present only on an archived dish: off the menu, kept for old bills and reports (POST /dishes/{id}/archive); left out of GET /dishes, listed by GET /dishes/archived; ordering it is 409' })),
});
const Body = Type.Object({
  name: PlaceName,
  price: Price('The menu price'),
  category_id: Type.String({ format: 'uuid', description: 'An existing dish category' }),
  station_id: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: "A kitchen station overriding the category's; null: the category's. Absent on PUT: unchanged",
  })),
  modifier_group_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), {
    maxItems: 20, uniqueItems: true, description: 'Existing modifier groups (400 otherwise). Absent on PUT: unchanged; [] takes them all off. 400 when the cheapest choice they allow (options below zero take money off) would take a portion below zero, at this field or, when only the price changed, at price',
  })),
  allergens: Type.Optional(Type.Array(Type.Enum([...ALLERGENS]), {
    maxItems: ALLERGENS.length, uniqueItems: true, description: "Of the EU's 14 (anything else 400). Absent on PUT: unchanged; [] declares none",
  })),
  tax_rate_id: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: "An existing tax rate overriding the category's (400 otherwise); null: the category's. Absent on PUT: unchanged",
  })),
  description: Type.Optional(Type.String({
    maxLength: DESCRIPTION_MAX, description: `What the menu tells a guest about it, trimmed, at most ${DESCRIPTION_MAX} characters. Absent on POST: none; on PUT: unchanged; '' takes it off`,
  })),
}, { examples: [{ name: 'Taco al pastor', price: 25.5, category_id: '0b6f1f0e-5a4d-4c3b-8a29-7e6d5c4b3a21' }, { name: 'Quesadilla', price: 40, category_id: '0b6f1f0e-5a4d-4c3b-8a29-7e6d5c4b3a21', allergens: ['gluten', 'milk'] }] });
const errors = { ...commonErrors, 409: Conflict('The dish already exists'), 412: Stale };

/**
 * What the clock makes of a dish now, only where it says something (not served, its hours, a level's
 * price): a menu without hours or levels answers byte for byte as before.
 */
const nowFields = (now: DishNow | null | undefined) => (now ? {
  ...(now.available ? {} : { available: false as const }), ...(now.from ? { available_from: now.from } : {}), ...(now.hours ? { hours: now.hours } : {}),
  ...(now.level ? { price_now: fromCents(now.priceCents), price_level: now.level.name } : {}),
} : {});

/** The dish as answered; its stock read for today, so a setting of an earlier business day no longer shows. */
export const viewOn = (d: DishView, today: string, now?: DishNow | null) => {
  const stock = stockOn({ day: null, soldOut: false, remaining: null, held: {}, ...d.stock }, today);
  return {
    id: d.id, name: d.name, price: d.price, category_id: d.category_id, station_id: d.station_id ?? null, modifier_group_ids: d.modifier_group_ids, allergens: d.allergens, tax_rate_id: d.tax_rate_id ?? null, description: d.description ?? '',
    sold_out: stock.soldOut, remaining: stock.remaining, ...nowFields(now), ...(d.archived ? { archived: true as const } : {}),
  };
};

/** The body as the menu decider takes it: the name trimmed and the price in exact cents. */
function dishDetails(body: Static<typeof Body>): DishDetails {
  const price = toCents(body.price);
  if (price === null) throw validationFailed([{ field: 'price', message: 'must have at most two decimals' }]);
  return { name: body.name.trim(), price, categoryId: body.category_id, stationId: body.station_id, modifierGroupIds: body.modifier_group_ids, allergens: body.allergens, taxRateId: body.tax_rate_id, description: body.description };
}

/** The seed's dishes, answering its bare JSON strings. */
export default async function dishRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['dishes'];
  const timezone = app.deps.config.timezone;
  // The menu's fold kept as a read model (menu-clock) says which hours hold now: a poll reads read
  // models only, no event-store read (it folded the menu stream before: 1 → 0 store reads per GET /dishes,
  // counted in test/menu-clock.test.ts).
  const clocks = app.deps.readStore.collection<MenuClockView>(MENU_CLOCK);
  const moment = async () => {
    const at = app.now();
    const today = businessDay(at, timezone);
    const kept = await clocks.get(MENU_CLOCK_ID);
    const state = kept?.state ?? menu.initialState();
    const clock = menuClockKey(state, at, timezone);
    const tag = clock ? `${today}.${kept?.events ?? 0}.${createHash('sha256').update(clock).digest('hex').slice(0, 16)}` : today;
    return { tag, view: (d: DishView) => viewOn(d, today, dishNow(state, d.id, at, timezone)) };
  };

  // The list's tag names the business day (a tablet revalidating after midnight hears that the 86s
  // ended) and, once the menu has hours, which of them hold (it hears when lunch starts).
  // One dish's tag is its version (If-Match), which a portion ordered does not move: never a 304.
  // Archived dishes are left out of the menu's list (GET /dishes/archived lists them); one is still read by id.
  resourceReads<DishView>(app, {
    path: '/dishes', tags, plural: 'dishes', permission: 'menu:read', collection: DISHES, schema: Dish, view: (d) => viewOn(d, businessDay(app.now(), timezone)), moment, notModifiedOne: false,
    listed: { filter: { archived: { $exists: false } }, words: 'on the menu (not archived)' },
  });
  const documents = app.deps.readStore.collection<DishView>(DISHES);

  app.post('/dishes', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Add a dish to the menu',
      description: 'Answers the bare JSON string "Dish added successfully"; the new dish is named by the Location header.',
      headers: IdempotencyHeaders, body: Body,
      response: { 201: withHeaders(Type.Literal('Dish added successfully', { description: 'Bare JSON string; Location: /dishes/<id>' }), Headers.location), ...errors },
    },
  }, async (request, reply) => {
    const result = await app.deps.commands.handle(menu, MENU_STREAM, {
      type: 'addDish', dishId: newResourceId(request, 'dish'), ...dishDetails(request.body),
    }, writeContext(request));
    const { dishId } = result.events[0]!.data as { dishId: string };
    await app.readYourWrite(result.position, `/dishes/${dishId}`);
    return sendJsonString(reply.header('location', `/dishes/${dishId}`), 201, 'Dish added successfully');
  });

  app.put('/dishes/:id', {
    config: { permission: 'menu:write' },
    preValidation: readOnlyFields(Body, async (request) => {
      const [now, d] = await Promise.all([moment(), documents.get(paramOf(request, 'id'))]);
      return d ? now.view(d) : null;
    }),
    schema: {
      tags, summary: 'Change a dish', description: 'Orders already placed keep the price they were taken at.',
      headers: IfMatchHeaders, params: IdParams, body: Body,
      response: { 200: Type.Literal('Dish updated successfully', { description: 'Bare JSON string' }), ...errors },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, {
      type: 'updateDish', dishId: id, ifMatch: ifMatch(request), ...dishDetails(request.body),
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return sendJsonString(reply, 200, 'Dish updated successfully');
  });

  app.delete('/dishes/:id', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Take a dish off the menu',
      description: 'Orders that include the dish keep their lines and prices. Answers 204 with no body: the seed lists "Dish deleted successfully" beside the 204, but HTTP forbids a body there.',
      params: IdParams, response: { 204: Type.Null({ description: 'Deleted; no body' }), ...errors },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, { type: 'removeDish', dishId: id }, writeContext(request));
    await app.readYourWrite(result.position);
    return sendNoContent(reply);
  });
}
