import { MENU_STREAM, type Menu, type MenuCommand, type MenuEvent, menu } from '@comanda/domain';
import { CATEGORIES } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { namedResourceRoutes } from '../../http/named-resources.js';

/** An id the schema checked, null, or absent (undefined: unchanged on PUT). */
const idOrNull = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : null);

/** The fields beside the name, as the route's schema has already checked them. */
const details = (body: Record<string, unknown>) => ({
  stationId: idOrNull(body.station_id), taxRateId: idOrNull(body.tax_rate_id),
  displayOrder: typeof body.display_order === 'number' ? body.display_order : undefined,
});

/**
 * Dish categories: the seed requires every dish to belong to one but lists no endpoints, so these
 * follow the shape of its spaces. They live in the menu stream beside the dishes that use them.
 */
export default async function categoryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  namedResourceRoutes<MenuCommand, MenuEvent, Menu>(app, {
    path: '/categories', tags: ['categories'], plural: 'dish categories', noun: 'Category', kind: 'category',
    permission: 'menu:read', writePermission: 'menu:write', collection: CATEGORIES,
    decider: menu, stream: MENU_STREAM,
    add: (categoryId, name, body) => ({ type: 'addCategory', categoryId, name, ...details(body) }),
    rename: (categoryId, name, ifMatch, body) => ({ type: 'renameCategory', categoryId, name, ifMatch, ...details(body) }),
    order: { sort: { display_order: 1, name: 1 }, words: 'display order, then name' },
    fields: {
      station_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'The kitchen station its dishes are sent to; null: the default station. Absent on PUT: unchanged',
      }),
      tax_rate_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'The tax rate of its dishes (a dish may override it); null: untaxed. Absent on PUT: unchanged',
      }),
      display_order: Type.Integer({
        minimum: 0, maximum: 9999, description: 'Where the menu screens list it: lower first, equal ones by name; 0 unless set. Absent on POST: 0; on PUT: unchanged',
      }),
    },
    remove: (categoryId) => ({ type: 'removeCategory', categoryId }),
    createdId: (event) => (event.data as { categoryId: string }).categoryId,
    describe: {
      add: 'Names are unique ignoring case: a duplicate answers 409. station_id must name an existing kitchen station, tax_rate_id an existing tax rate (400).',
      remove: 'Refused with 409 while dishes use the category: move or delete those dishes first.',
      conflict: 'Another category has this name (ignoring case), or dishes still use the category (counted by dish_count)',
      conflictFields: { dish_count: Type.Integer() },
    },
  });
}
