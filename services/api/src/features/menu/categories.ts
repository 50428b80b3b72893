import { MENU_STREAM, type Menu, type MenuCommand, type MenuEvent, menu } from '@comanda/domain';
import { CATEGORIES } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { namedResourceRoutes } from '../../http/named-resources.js';

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
    add: (categoryId, name, body) => ({ type: 'addCategory', categoryId, name, stationId: body.station_id as string | null | undefined, taxRateId: body.tax_rate_id as string | null | undefined }),
    rename: (categoryId, name, ifMatch, body) => ({
      type: 'renameCategory', categoryId, name, ifMatch, stationId: body.station_id as string | null | undefined, taxRateId: body.tax_rate_id as string | null | undefined,
    }),
    fields: {
      station_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'The kitchen station its dishes are sent to; null: the default station. Absent on PUT: unchanged',
      }),
      tax_rate_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'The tax rate of its dishes (a dish may override it); null: untaxed. Absent on PUT: unchanged',
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
