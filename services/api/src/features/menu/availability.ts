import { type HoursWindow, MAX_WINDOWS, hoursVersion, MENU_STREAM, type Menu, type PriceLevel, WEEKDAYS, fromCents, hoursLabel, menu, notFound, toCents, validationFailed } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { sendNoContent } from '../../http/replies.js';
import { Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from '../../http/resources.js';
import { Headers as ReplyHeaders, IdParams, Price, commonErrors, withHeaders } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { REVALIDATE, versionTag } from '../../plugins/revalidation.js';

const Window = Type.Object({
  days: Type.Array(Type.Enum([...WEEKDAYS]), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'the days the window starts on' }),
  from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, restaurant time (COMANDA_TIMEZONE)' }),
  to: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, the first minute outside; not after from: the window crosses midnight (22:00–02:00)' }),
});
const Windows = Type.Array(Window, { maxItems: MAX_WINDOWS });
const Hours = Type.Object({ windows: Windows }, { examples: [{ windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '07:00', to: '11:30' }] }, { windows: [] }] });
const HoursSet = Type.Object({ message: Type.Literal('Hours set'), id: Type.String({ format: 'uuid' }), windows: Windows, hours: Type.String({ description: "as a waiter reads them; '' for always" }) });

const HeldHours = Type.Object({ id: Type.String({ format: 'uuid' }), windows: Windows, hours: Type.String() });

const LevelBody = Type.Object({
  name: PlaceName,
  windows: Type.Array(Window, { minItems: 1, maxItems: MAX_WINDOWS }),
  prices: Type.Array(Type.Object({ dish_id: Type.String({ format: 'uuid' }), price: Price('The dish\'s price in these hours') }), { maxItems: 1000, description: 'dishes it does not name keep the menu\'s price' }),
}, { examples: [{ name: 'Happy hour', windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '17:00', to: '19:00' }], prices: [{ dish_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', price: 45 }] }] });
const Level = Type.Object({ id: Type.String({ format: 'uuid' }), ...LevelBody.properties, hours: Type.String(), version: Type.Integer({ minimum: 1 }) });
const levelErrors = { ...commonErrors, 409: Conflict('Another price level has this name (ignoring case), or this one exists already'), 412: Stale };

const levelView = (l: PriceLevel) => ({
  id: l.id, name: l.name, windows: l.windows, hours: hoursLabel(l.windows),
  prices: Object.entries(l.prices).map(([dish_id, cents]) => ({ dish_id, price: fromCents(cents) })), version: l.version,
});

function levelDetails(body: Static<typeof LevelBody>) {
  const prices = body.prices.map((p, i) => {
    const cents = toCents(p.price);
    if (cents === null) throw validationFailed([{ field: `prices[${i}].price`, message: 'must have at most two decimals' }]);
    return { dishId: p.dish_id, priceCents: cents };
  });
  return { name: body.name.trim(), windows: body.windows, prices };
}

/**
 * When dishes are served and what they cost in given hours (issue 60): a dish's or a category's hours
 * (breakfast, lunch) and price levels (happy hour), in restaurant time. The menu's own fold answers
 * their reads, as the dishes' `available` and `price_now` are worked out from it.
 */
export default async function availabilityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const by = (request: FastifyRequest) => request.staff?.id ?? null;
  const menuNow = async (): Promise<Menu> => (await app.deps.commands.state(menu, MENU_STREAM)).state;

  const holders = {
    dish: (state: Menu, id: string) => state.dishes[id],
    category: (state: Menu, id: string) => state.categories[id],
  };
  const hoursAnswer = (reply: FastifyReply, holder: { id: string; windows?: HoursWindow[]; hoursVersion?: number }) => {
    reply.header('etag', versionTag(hoursVersion(holder))).header('cache-control', REVALIDATE);
    const windows = holder.windows ?? [];
    return { id: holder.id, windows, hours: hoursLabel(windows) };
  };
  for (const [path, what, command] of [
    ['/dishes/:id/availability', 'dish', (id: string, windows: HoursWindow[], ifMatch: number | undefined, who: string | null) => ({ type: 'setDishAvailability' as const, dishId: id, windows, ifMatch, by: who })],
    ['/categories/:id/availability', 'category', (id: string, windows: HoursWindow[], ifMatch: number | undefined, who: string | null) => ({ type: 'setCategoryAvailability' as const, categoryId: id, windows, ifMatch, by: who })],
  ] as const) {
    const tags = [what === 'dish' ? 'dishes' : 'categories'];
    app.get(path, {
      config: { permission: 'menu:read' },
      schema: { tags, summary: `When a ${what} is served, with the hours' own version as ETag (for If-Match on PUT)`, params: IdParams, response: { 200: withHeaders(HeldHours, ReplyHeaders.etag), ...commonErrors } },
    }, async (request, reply) => {
      const holder = holders[what](await menuNow(), request.params.id);
      if (!holder) throw notFound();
      return hoursAnswer(reply, holder);
    });

    app.put(path, {
      config: { permission: 'menu:write' },
      schema: {
        tags, summary: `Set when a ${what} is served (its hours); [] serves it always`,
        description: `A dish is served when its own hours and its category's both hold. Outside them, ordering it is 409 ("<dish> is not served now (served Mon–Fri 07:00–11:30)"); GET /dishes says \`available\` and \`available_from\`. Setting the same hours again writes nothing. If-Match takes the ETag of GET ${path.replace(':id', '{id}')} (the hours' own version, "0" before any were set): hours another manager set since are 412, not overwritten.`,
        headers: Type.Object({ ...IfMatchHeaders.properties, ...IdempotencyHeaders.properties }), params: IdParams, body: Hours,
        response: { 200: withHeaders(HoursSet, ReplyHeaders.etag), ...commonErrors, 409: Conflict('Never for the hours themselves'), 412: Stale },
      },
    }, async (request, reply) => {
      const { id } = request.params;
      const result = await app.deps.commands.handle(menu, MENU_STREAM, command(id, request.body.windows, ifMatch(request), by(request)), writeContext(request));
      await app.readYourWrite(result.position);
      const holder = holders[what](await menuNow(), id);
      return { message: 'Hours set' as const, ...(holder ? hoursAnswer(reply, holder) : { id, windows: [], hours: '' }) };
    });
  }

  const held = (id: string, windows: HoursWindow[] | undefined) => (windows?.length ? [{ id, windows, hours: hoursLabel(windows) }] : []);
  app.get('/menu-hours', {
    config: { permission: 'menu:read' },
    schema: {
      tags: ['price levels'], summary: 'The categories and dishes that have hours, with them (those left out are served always)',
      response: { 200: Type.Object({ categories: Type.Array(HeldHours), dishes: Type.Array(HeldHours) }), ...commonErrors },
    },
  }, async () => {
    const state = await menuNow();
    return {
      categories: Object.values(state.categories).flatMap((c) => held(c.id, c.windows)),
      dishes: Object.values(state.dishes).filter((d) => !d.archived).flatMap((d) => held(d.id, d.windows)),
    };
  });

  app.get('/price-levels', {
    config: { permission: 'menu:read' },
    schema: { tags: ['price levels'], summary: 'The price levels (happy hour…), by name, with their hours and prices', response: { 200: Type.Array(Level), ...commonErrors } },
  }, async () => Object.values((await menuNow()).priceLevels).sort((a, b) => a.name.localeCompare(b.name)).map(levelView));

  app.get('/price-levels/:id', {
    config: { permission: 'menu:read' },
    schema: { tags: ['price levels'], summary: 'One price level, with its version as ETag (for If-Match)', params: IdParams, response: { 200: withHeaders(Level, ReplyHeaders.etag), ...commonErrors } },
  }, async (request, reply) => {
    const level = (await menuNow()).priceLevels[request.params.id];
    if (!level) throw notFound();
    reply.header('etag', versionTag(level.version)).header('cache-control', REVALIDATE);
    return levelView(level);
  });

  const describe = 'In its hours an order takes its price for the dishes it names, and the line says so (`price_level`); two levels at once: the lower price. Who set it is recorded (audit trail, kind `price_level`).';
  app.post('/price-levels', {
    config: { permission: 'menu:write' },
    schema: { tags: ['price levels'], summary: 'Add a price level', description: describe, headers: IdempotencyHeaders, body: LevelBody, response: { 201: withHeaders(Level, ReplyHeaders.location), ...levelErrors } },
  }, async (request, reply) => {
    const id = newResourceId(request, 'price-level');
    const result = await app.deps.commands.handle(menu, MENU_STREAM, { type: 'setPriceLevel', priceLevelId: id, create: true, by: by(request), ...levelDetails(request.body) }, writeContext(request));
    await app.readYourWrite(result.position);
    const level = (await menuNow()).priceLevels[id];
    if (!level) throw notFound();
    return reply.code(201).header('location', `/price-levels/${id}`).send(levelView(level));
  });

  app.put('/price-levels/:id', {
    config: { permission: 'menu:write' },
    schema: { tags: ['price levels'], summary: 'Change a price level: its name, hours and prices, all of them', description: describe, headers: Type.Object({ ...IfMatchHeaders.properties, ...IdempotencyHeaders.properties }), params: IdParams, body: LevelBody, response: { 200: Level, ...levelErrors } },
  }, async (request) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, { type: 'setPriceLevel', priceLevelId: id, create: false, ifMatch: ifMatch(request), by: by(request), ...levelDetails(request.body) }, writeContext(request));
    await app.readYourWrite(result.position);
    const level = (await menuNow()).priceLevels[id];
    if (!level) throw notFound();
    return levelView(level);
  });

  app.delete('/price-levels/:id', {
    config: { permission: 'menu:write' },
    schema: { tags: ['price levels'], summary: 'Remove a price level: its dishes take the menu\'s price again (lines already ordered keep theirs)', headers: IdempotencyHeaders, params: IdParams, response: { 204: Type.Null({ description: 'Removed; no body' }), ...commonErrors, 409: Conflict('Never for the level itself') } },
  }, async (request, reply) => {
    const result = await app.deps.commands.handle(menu, MENU_STREAM, { type: 'removePriceLevel', priceLevelId: request.params.id, by: by(request) }, writeContext(request));
    await app.readYourWrite(result.position);
    return sendNoContent(reply);
  });
}
