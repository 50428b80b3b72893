import { CURRENCY_STREAM, baseCurrency, businessDay, currencyById, conflict, dishNow, guestRequest, guestRequestStream, menu, newId, notFound, stockOn } from '@comanda/domain';
import {
  CATEGORIES, type CategoryView, DISHES, type DishView, GUEST_REQUESTS, type GuestRequestView, MENU_CLOCK, MENU_CLOCK_ID, MODIFIER_GROUPS, type MenuClockView,
  type ModifierGroupView, TABLES, type TableView,
} from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { commonErrors } from '../../http/schemas.js';
import { settingsNow } from '../../http/settings.js';
import { guestLimiter } from './guest-limit.js';
import { tableOfToken } from './guest-token.js';

const TokenParams = Type.Object({ token: Type.String({ description: "the table's token (a secret: the link on the table's QR)" }) });
const Unknown = Type.Literal('Resource not found', { description: 'Bare JSON string: an unknown token, or one of a table no longer on the floor' });
const Limited = Type.Ref('Message', { description: 'Too many requests from this address (Retry-After says when to try again)' });
/** Requests a table may have waiting for its waiter at once: a phone cannot bury the floor in them. */
export const OPEN_REQUESTS_PER_TABLE = 5;

const TableMenu = Type.Object({
  restaurant: Type.String(), table: Type.String({ description: "the table's name" }), currency: Type.String({ description: 'acronym' }),
  categories: Type.Array(Type.Object({
    name: Type.String(),
    dishes: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), price: Type.Number(), allergens: Type.Array(Type.String()) })),
  }), { description: 'What is served now, by the menu\'s order: sold-out dishes, dishes outside their hours and dishes that need a choice made (a required option) are left out' }),
});
const RequestStatus = Type.Object({
  id: Type.String(), status: Type.Union([Type.Literal('open'), Type.Literal('accepted'), Type.Literal('declined')]),
  reason: Type.Union([Type.String(), Type.Null()], { description: "the waiter's reason when declined" }),
  lines: Type.Array(Type.Object({ dish_id: Type.String(), name: Type.String(), quantity: Type.Integer(), notes: Type.String() })),
});

/**
 * Ordering from the table (issue 63): the public routes behind a table's QR. The guest reads what is
 * served now and asks for dishes; nothing reaches the kitchen or the bill until the table's waiter
 * accepts it on the POS (POST /guest-requests/{id}/accept).
 */
export default async function tableRequestRoutes(fastify: FastifyInstance, options: { key: string }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore, config } = app.deps;
  const limit = guestLimiter(() => app.now());
  const tables = readStore.collection<TableView>(TABLES);
  const requests = readStore.collection<GuestRequestView>(GUEST_REQUESTS);
  const tableOf = async (request: FastifyRequest, token: string): Promise<TableView> => {
    limit(request.ip);
    const id = tableOfToken(options.key, token);
    const table = id ? await tables.get(id) : null;
    if (!table) throw notFound();
    return table;
  };

  /** The dishes served now, by category in the menu's order; the ones a guest cannot ask for alone left out. */
  const servedNow = async () => {
    const at = app.now();
    const today = businessDay(at, config.timezone);
    const [clock, dishes, categories, groups] = await Promise.all([
      readStore.collection<MenuClockView>(MENU_CLOCK).get(MENU_CLOCK_ID), readStore.collection<DishView>(DISHES).find({ archived: { $exists: false } }),
      readStore.collection<CategoryView>(CATEGORIES).find({}, { sort: { display_order: 1, name: 1 } }), readStore.collection<ModifierGroupView>(MODIFIER_GROUPS).find({}),
    ]);
    const state = clock?.state ?? menu.initialState();
    const required = new Set(groups.filter((g) => g.min_choices > 0).map((g) => g.id));
    const onSale = dishes.filter((d) => !stockOn({ day: null, soldOut: false, remaining: null, held: {}, ...d.stock }, today).soldOut
      && dishNow(state, d.id, at, config.timezone)?.available !== false && !d.modifier_group_ids.some((g) => required.has(g)));
    return categories.map((c) => ({
      name: c.name,
      dishes: onSale.filter((d) => d.category_id === c.id).sort((a, b) => a.name.localeCompare(b.name))
        .map((d) => ({ id: d.id, name: d.name, description: d.description ?? '', price: d.price, allergens: d.allergens })),
    })).filter((c) => c.dishes.length > 0);
  };

  app.get('/guest/table/:token', {
    config: { permission: 'anyone' },
    schema: { tags: ['guest'], summary: "The menu as a table's QR shows it: what can be asked for now", params: TokenParams, response: { 200: TableMenu, 404: Unknown, 429: Limited } },
  }, async (request) => {
    const table = await tableOf(request, request.params.token);
    const currency = currencyById((await app.deps.commands.state(baseCurrency, CURRENCY_STREAM)).state.currencyId)?.acronym ?? '';
    return { restaurant: (await settingsNow(app)).restaurantName, table: table.name, currency, categories: await servedNow() };
  });

  app.post('/guest/table/:token/requests', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['guest'], summary: 'Ask the table\'s waiter for dishes',
      description: 'Nothing is ordered yet: the waiter accepts (the lines go on the table\'s order, then the waiter fires them) or declines with a reason. Only dishes served now (GET /guest/table/{token}); prices are the menu\'s, never the guest\'s.',
      params: TokenParams,
      body: Type.Object({
        lines: Type.Array(Type.Object({
          dish_id: Type.String({ format: 'uuid' }), quantity: Type.Integer({ minimum: 1, maximum: 20 }), notes: Type.Optional(Type.String({ maxLength: 200 })),
        }, { additionalProperties: false }), { minItems: 1, maxItems: 30 }),
      }, { additionalProperties: false }),
      response: {
        201: RequestStatus, 400: commonErrors[400], 404: Unknown, 429: Limited,
        409: Type.Ref('Message', { description: 'A dish is not served now (sold out, outside its hours, needs a choice the waiter makes), or the table already has 5 requests waiting' }),
      },
    },
  }, async (request, reply) => {
    const table = await tableOf(request, request.params.token);
    const menuNow = new Map((await servedNow()).flatMap((c) => c.dishes).map((d) => [d.id, d.name]));
    const missing = request.body.lines.find((l) => !menuNow.has(l.dish_id));
    if (missing) throw conflict('A dish you chose is not served now: read the menu again');
    if ((await requests.find({ table_id: table.id, status: 'open' })).length >= OPEN_REQUESTS_PER_TABLE) throw conflict('Your waiter has your earlier requests: wait for an answer first');
    const requestId = newId();
    const lines = request.body.lines.map((l) => ({ dishId: l.dish_id, quantity: l.quantity, notes: (l.notes ?? '').trim() }));
    const result = await app.deps.commands.handle(guestRequest, guestRequestStream(requestId), { type: 'requestDishes', requestId, tableId: table.id, lines, at: app.now() }, { userId: null, correlationId: request.id });
    await app.readYourWrite(result.position);
    return reply.code(201).send({ id: requestId, status: 'open', reason: null, lines: lines.map((l) => ({ dish_id: l.dishId, name: menuNow.get(l.dishId)!, quantity: l.quantity, notes: l.notes })) });
  });

  app.get('/guest/table/:token/requests/:id', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['guest'], summary: "Whether the waiter accepted a guest's request", params: Type.Object({ token: TokenParams.properties.token, id: Type.String({ format: 'uuid' }) }),
      response: { 200: RequestStatus, 400: commonErrors[400], 404: Unknown, 429: Limited },
    },
  }, async (request) => {
    const table = await tableOf(request, request.params.token);
    const r = await requests.get(request.params.id);
    // Another table's request is no one's business here.
    if (!r || r.table_id !== table.id) throw notFound();
    const names = new Map((await readStore.collection<DishView>(DISHES).find({ _id: { $in: r.lines.map((l) => l.dish_id) } })).map((d) => [d.id, d.name]));
    return { id: r.id, status: r.status, reason: r.reason, lines: r.lines.map((l) => ({ ...l, name: names.get(l.dish_id) ?? 'Dish' })) };
  });
}
