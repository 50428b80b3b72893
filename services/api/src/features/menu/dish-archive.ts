import { MENU_STREAM, businessDay, menu, notFound } from '@comanda/domain';
import { DISHES, type DishView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Conflict, IdempotencyHeaders, IfMatchHeaders, Stale } from '../../http/resources.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { ifMatch, writeContext } from '../../http/write-context.js';
import { Dish, viewOn } from './dishes.js';

const Headers = Type.Object({ ...IfMatchHeaders.properties, ...IdempotencyHeaders.properties });

/**
 * Archiving a dish (issue 60): it leaves the waiters' menu and cannot be ordered (409), but is not
 * deleted: old bills, orders and the reports keep its name, and a manager restores it. Events in the
 * `menu` stream (DishArchived, DishRestored), with who and when.
 */
export default async function dishArchiveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const dishes = app.deps.readStore.collection<DishView>(DISHES);
  const view = (d: DishView) => viewOn(d, businessDay(app.now(), app.deps.config.timezone));

  app.get('/dishes/archived', {
    config: { permission: 'menu:read' },
    schema: { tags: ['dishes'], summary: 'The archived dishes, by name (the menu editor lists them apart, each with a restore)', response: { 200: Type.Array(Dish), ...commonErrors } },
  }, async () => (await dishes.find({ archived: { $exists: true } }, { sort: { name: 1 } })).map(view));

  for (const [action, type, summary] of [
    ['archive', 'archiveDish', 'Archive a dish: off the waiters\' menu, never ordered again until restored; its name stays on old bills and in the reports'],
    ['restore', 'restoreDish', 'Put an archived dish back on the menu'],
  ] as const) {
    app.post(`/dishes/:id/${action}`, {
      config: { permission: 'menu:write' },
      schema: {
        tags: ['dishes'], summary, description: 'Doing it twice changes nothing more. If-Match takes the dish\'s ETag (412 when another manager changed it since).',
        headers: Headers, params: IdParams, response: { 200: Dish, ...commonErrors, 409: Conflict('Archiving or restoring twice is none: it changes nothing'), 412: Stale },
      },
    }, async (request) => {
      const { id } = request.params;
      const result = await app.deps.commands.handle(menu, MENU_STREAM, { type, dishId: id, ifMatch: ifMatch(request), by: request.staff?.id ?? null, at: app.now() }, writeContext(request));
      await app.readYourWrite(result.position);
      const d = await dishes.get(id);
      if (!d) throw notFound();
      return view(d);
    });
  }
}
