import { TABLE_STATUSES, layoutOf, notFound } from '@comanda/domain';
import { Cell, Look, planOf } from './plan-schemas.js';
import { addTable, removeTable, setUpTable } from '@comanda/workflows';
import { SPACES, type SpaceView, TABLES, type TableView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { resourceReads } from '../../http/resource-reads.js';
import { storedAs } from '../../http/representation.js';
import { Conflict, Confirmation, EmptyList, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale, sendList } from '../../http/resources.js';
import { Headers, IdParams, OptionalPagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { findPage } from '../../http/pages.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { unchanged } from '../../plugins/revalidation.js';
import { readOnlyFields } from '../../http/read-only-fields.js';


// An enum and a nullable type rather than unions: a bad value then gives one error, not one per branch.
const status = (description = 'available, occupied or reserved') => Type.Enum([...TABLE_STATUSES], { description });
const ACTIVE_ORDER = 'An active order (not completed or cancelled) seated at the table, or null';
const orderId = (description = ACTIVE_ORDER) => Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description });
const Table = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  status: status(),
  space_id: Type.String({ format: 'uuid' }),
  order_id: orderId('The active order seated at the table, or null'),
  ...Cell.optional, ...Look.optional,
});
const CreateBody = Type.Object({
  name: PlaceName,
  status: Type.Optional(status('available (the default), occupied or reserved')),
  space_id: Type.String({ format: 'uuid', description: 'An existing space' }),
  order_id: Type.Optional(orderId(`${ACTIVE_ORDER}; defaults to null`)),
  ...Cell.optional, ...Look.optional,
});
const UpdateBody = Type.Object({ name: PlaceName, status: status(), space_id: Type.String({ format: 'uuid' }), order_id: orderId() });
const errors = {
  ...commonErrors,
  409: Conflict('A table of that name exists in the space, or the table has an active order (named by order_id)', { order_id: Type.String({ format: 'uuid' }) }),
  412: Stale,
};

const view = (t: TableView) => ({ id: t.id, name: t.name, status: t.status, space_id: t.space_id, order_id: t.order_id, ...layoutOf(t) });

const RULES = [
  'status is one of available, occupied, reserved. A non-null order_id must name an existing order that is',
  'not completed or cancelled, and then status must be occupied; occupied with order_id null is a walk-in',
  'seated before ordering. A table that holds an active order keeps it until the order is completed,',
  'cancelled or deleted (409 otherwise); a table still holding a finished order may be set up afresh.',
  'Table names are unique within their space, ignoring case. column and row (together) place a new table on a free',
  'cell of its space\'s grid (409 when taken); shape and seats (together) give its look. A table never placed nor',
  'shaped is answered without these four fields.',
].join(' ');

/** Tables: their layout (floor stream) and their occupancy (each table's own stream, where orders seat themselves too). */
export default async function tableRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tables = app.deps.readStore.collection<TableView>(TABLES);
  const spaces = app.deps.readStore.collection<SpaceView>(SPACES);
  const tags = ['tables'];
  const floorTag = app.collectionsTag([TABLES, SPACES]);

  resourceReads<TableView>(app, { path: '/tables', tags, plural: 'tables', permission: 'floor:read', collection: TABLES, schema: Table, view });

  app.get('/tables/by-space/:id', {
    config: { permission: 'floor:read' },
    schema: {
      tags, summary: 'The tables of one space', description: '404 when the space does not exist; 204 with no body when it has no tables.',
      params: IdParams, querystring: OptionalPagination, response: { 200: withHeaders(Type.Array(Table), Headers.totalCount), 204: EmptyList('tables in this space'), ...errors },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const tag = await floorTag();
    if (!(await spaces.get(id))) throw notFound();
    if (unchanged(request, reply, tag)) return reply;
    return sendList(reply, (await findPage(reply, tables, { space_id: id }, { sort: { name: 1 } }, request.query, null)).items.map(view));
  });

  app.post('/tables', {
    config: { permission: 'floor:write' },
    schema: { tags, summary: 'Add a table to a space', description: RULES, headers: IdempotencyHeaders, body: CreateBody, response: { 201: withHeaders(Confirmation, Headers.location), ...errors } },
  }, async (request, reply) => {
    const { body } = request;
    const { tableId, position } = await addTable(app.deps.commands, {
      tableId: newResourceId(request, 'table'), context: writeContext(request), plan: planOf(body),
      setup: { name: body.name.trim(), spaceId: body.space_id, status: body.status ?? 'available', orderId: body.order_id ?? null },
    });
    await app.readYourWrite(position, `/tables/${tableId}`);
    return reply.code(201).header('location', `/tables/${tableId}`).send({ id: tableId, message: 'Table added successfully' });
  });

  app.put('/tables/:id', {
    config: { permission: 'floor:write' },
    preValidation: readOnlyFields(UpdateBody, storedAs(app, TABLES, view)),
    schema: {
      tags, summary: 'Set up a table: name, space, status and order', description: `Replaces all four fields. ${RULES}`,
      headers: IfMatchHeaders, params: IdParams, body: UpdateBody, response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const { body } = request;
    const { position } = await setUpTable(app.deps.commands, {
      tableId: id, ifMatch: ifMatch(request), context: writeContext(request),
      setup: { name: body.name.trim(), spaceId: body.space_id, status: body.status, orderId: body.order_id },
    });
    await app.readYourWrite(position);
    return { id, message: 'Table updated successfully' };
  });

  app.delete('/tables/:id', {
    config: { permission: 'floor:write' },
    schema: {
      tags, summary: 'Delete a table', description: 'Refused with 409 while an order is seated at the table, even when the order is being seated at the same moment.',
      params: IdParams, response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await removeTable(app.deps.commands, { tableId: id, context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'Table deleted successfully' };
  });
}
