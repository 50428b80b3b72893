import { FLOOR_GRID } from '@comanda/domain';
import { changeSection, drawSection, removeSection } from '@comanda/workflows';
import { SECTIONS, type SectionView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { resourceReads } from '../../http/resource-reads.js';
import { Confirmation, Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from '../../http/resources.js';
import { Headers, IdParams, commonErrors, withHeaders } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';

const uuid = (description: string) => Type.String({ format: 'uuid', description });
const waiterId = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description: 'The user who serves these tables, or null for nobody yet' });
const tableIds = Type.Array(uuid('A table of the section\'s space'), { maxItems: FLOOR_GRID.columns * FLOOR_GRID.rows, description: 'Its tables, each in no other section' });
const Section = Type.Object({ id: uuid('The section'), name: Type.String(), space_id: uuid('Its space'), table_ids: tableIds, waiter_id: waiterId });
const ChangeBody = Type.Object({ name: PlaceName, table_ids: tableIds, waiter_id: waiterId });
const CreateBody = Type.Object({ ...ChangeBody.properties, space_id: uuid('An existing space') });
const RemoveHeaders = Type.Object({ ...IfMatchHeaders.properties, ...IdempotencyHeaders.properties });
const errors = { ...commonErrors, 409: Conflict('A table is already in another section'), 412: Stale };

const view = (s: SectionView) => ({ id: s.id, name: s.name, space_id: s.space_id, table_ids: s.table_ids, waiter_id: s.waiter_id });
const setupOf = (body: { name: string; table_ids: string[]; waiter_id: string | null }) => ({ name: body.name.trim(), tableIds: body.table_ids, waiterId: body.waiter_id });

/** Sections: named groups of a space's tables, each with the waiter who serves them (floor stream). */
export default async function sectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['sections'];
  resourceReads<SectionView>(app, { path: '/sections', tags, plural: 'sections', permission: 'floor:read', collection: SECTIONS, schema: Section, view });

  app.post('/sections', {
    config: { permission: 'floor:write' },
    schema: {
      tags, summary: 'Draw a section: tables of one space and their waiter', headers: IdempotencyHeaders, body: CreateBody,
      response: { 201: withHeaders(Confirmation, Headers.location), ...errors },
    },
  }, async (request, reply) => {
    const { body } = request;
    const { sectionId, position } = await drawSection(app.deps.commands, {
      sectionId: newResourceId(request, 'section'), spaceId: body.space_id, setup: setupOf(body), context: writeContext(request),
    });
    await app.readYourWrite(position, `/sections/${sectionId}`);
    return reply.code(201).header('location', `/sections/${sectionId}`).send({ id: sectionId, message: 'Section added successfully' });
  });

  app.put('/sections/:id', {
    config: { permission: 'floor:write' },
    schema: { tags, summary: 'Rename a section, change its tables or its waiter', headers: IfMatchHeaders, params: IdParams, body: ChangeBody, response: { 200: Confirmation, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await changeSection(app.deps.commands, { sectionId: id, setup: setupOf(request.body), ifMatch: ifMatch(request), context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'Section updated successfully' };
  });

  app.delete('/sections/:id', {
    config: { permission: 'floor:write' },
    schema: { tags, summary: 'Remove a section (its tables stay)', description: 'If-Match takes the section\'s ETag (412 when another manager changed it since).',
      headers: RemoveHeaders, params: IdParams, response: { 200: Confirmation, ...commonErrors, 409: Conflict('The Idempotency-Key was used for another request'), 412: Stale },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await removeSection(app.deps.commands, { sectionId: id, ifMatch: ifMatch(request), context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'Section deleted successfully' };
  });
}
