import { MENU_STREAM, menu, notFound } from '@comanda/domain';
import { STATIONS, type StationView, withDefault } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Confirmation, Conflict, EmptyList, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale, sendList } from '../../http/resources.js';
import { Headers, IdParams, OptionalPagination, PAGED_BY_CHOICE, commonErrors, withHeaders } from '../../http/schemas.js';
import { arrayPage } from '../../http/pages.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { unchanged, versionTag } from '../../plugins/revalidation.js';

const Station = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  is_default: Type.Boolean({ description: 'Lines whose dish and category name no station go here' }),
});
const Body = Type.Object({
  name: PlaceName,
  default: Type.Optional(Type.Boolean({ description: 'true makes this the default station (otherwise the first created is)' })),
});
const errors = {
  ...commonErrors,
  409: Conflict('Another station has this name (ignoring case), or categories or dishes still route to it', { category_count: Type.Integer(), dish_count: Type.Integer() }),
  412: Stale,
};
const tags = ['kitchen'];
const view = (s: StationView & { is_default: boolean }) => ({ id: s.id, name: s.name, is_default: s.is_default });

/** Kitchen stations (Grill, Bar, Cold): they live in the menu stream beside the categories and dishes routed to them. */
export default async function stationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const stations = app.deps.readStore.collection<StationView>(STATIONS);
  const all = async () => withDefault(await stations.find({}, { sort: { name: 1 } }));

  app.get('/stations', {
    config: { permission: 'menu:read' },
    schema: {
      tags, summary: 'Kitchen stations by name', description: PAGED_BY_CHOICE, querystring: OptionalPagination,
      response: { 200: withHeaders(Type.Array(Station), Headers.totalCount), 204: EmptyList('kitchen stations'), ...commonErrors },
    },
  }, async (request, reply) => sendList(reply, arrayPage(reply, await all(), request.query, null).map(view)));

  app.get('/stations/:id', {
    config: { permission: 'menu:read' },
    schema: { tags, summary: 'One station, with its version as ETag', params: IdParams, response: { 200: Station, ...commonErrors } },
  }, async (request, reply) => {
    const station = (await all()).find((s) => s.id === request.params.id);
    if (!station) throw notFound();
    if (unchanged(request, reply, versionTag(station.version))) return reply;
    return view(station);
  });

  app.post('/stations', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Add a kitchen station', description: 'Names are unique ignoring case (409). The first station created is the default until another is made default.',
      headers: IdempotencyHeaders, body: Body, response: { 201: Confirmation, ...errors },
    },
  }, async (request, reply) => {
    const body = request.body;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, {
      type: 'addStation', stationId: newResourceId(request, 'station'), name: body.name.trim(), makeDefault: body.default === true,
    }, writeContext(request));
    const { stationId } = result.events[0]!.data as { stationId: string };
    await app.readYourWrite(result.position, `/stations/${stationId}`);
    return reply.code(201).header('location', `/stations/${stationId}`).send({ id: stationId, message: 'Station added successfully' });
  });

  app.put('/stations/:id', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Rename a station, or make it the default', description: '`default: false` changes nothing: make another station the default instead.',
      headers: IfMatchHeaders, params: IdParams, body: Body, response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const body = request.body;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, {
      type: 'renameStation', stationId: id, name: body.name.trim(), ifMatch: ifMatch(request), makeDefault: body.default === true,
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Station updated successfully' };
  });

  app.delete('/stations/:id', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Delete a station',
      description: 'Refused with 409 while a dish category or a dish routes to it (checked in the menu stream, so a category being pointed at it at the same moment cannot slip through). Tickets already sent to it stay readable.',
      params: IdParams, response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(menu, MENU_STREAM, { type: 'removeStation', stationId: id }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Station deleted successfully' };
  });
}
