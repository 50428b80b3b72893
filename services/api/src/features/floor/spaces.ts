import { FLOOR_STREAM, type Floor, type FloorCommand, type FloorEvent, floor } from '@comanda/domain';
import { SPACES } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { namedResourceRoutes } from '../../http/named-resources.js';

/** Spaces: the areas of the restaurant that hold tables (floor stream). */
export default async function spaceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  namedResourceRoutes<FloorCommand, FloorEvent, Floor>(app, {
    path: '/spaces', tags: ['spaces'], plural: 'spaces', noun: 'Space', kind: 'space',
    permission: 'floor:read', writePermission: 'floor:write', collection: SPACES,
    decider: floor, stream: FLOOR_STREAM,
    add: (spaceId, name) => ({ type: 'createSpace', spaceId, name }),
    rename: (spaceId, name, ifMatch) => ({ type: 'renameSpace', spaceId, name, ifMatch }),
    remove: (spaceId) => ({ type: 'removeSpace', spaceId }),
    createdId: (event) => (event.data as { spaceId: string }).spaceId,
    describe: {
      add: 'Space names need not be unique (the seed sets no rule).',
      remove: 'Refused with 409 while the space has tables, even when a table is being added at the same moment.',
      conflict: 'The space still has tables (counted by table_count)',
      conflictFields: { table_count: Type.Integer() },
    },
  });
}
