import type { Decider, DomainEvent, Permission } from '@comanda/domain';
import type { Tracked } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { storedAs } from './representation.js';
import { type ResourceReads, resourceReads } from './resource-reads.js';
import { Confirmation, Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from './resources.js';
import { Headers, IdParams, commonErrors, withHeaders } from './schemas.js';
import { ifMatch, newResourceId, writeContext } from './write-context.js';
import { readOnlyFields } from './read-only-fields.js';

type Named = Tracked & { id: string; name: string; version: number };

/** A resource that is only a name (dish categories, spaces): its commands, words and rules. */
export interface NamedResource<C, E extends DomainEvent, S> extends Omit<ResourceReads<Named>, 'schema' | 'view'> {
  /** 'Category': confirmations read '<Noun> added successfully'. */
  noun: string;
  /** Derives ids from Idempotency-Keys. */
  kind: string;
  writePermission: Permission;
  decider: Decider<C, E, S>;
  stream: string;
  add(id: string, name: string, body: Record<string, unknown>): C;
  rename(id: string, name: string, ifMatch: number | undefined, body: Record<string, unknown>): C;
  /** Fields beside the name (a category's station_id): optional in the body, answered by reads. */
  fields?: Record<string, TSchema>;
  remove(id: string): C;
  /** The id a first event created: a replayed request answers the id of the first one. */
  createdId(event: E): string;
  describe: { add: string; remove: string; conflict: string; conflictFields: Record<string, TSchema> };
}

/** The five routes of a named resource: list, read, add (201), rename (If-Match) and delete. */
export function namedResourceRoutes<C, E extends DomainEvent, S>(fastify: FastifyInstance, o: NamedResource<C, E, S>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const fields = o.fields ?? {};
  const schema = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), ...fields });
  const view = (d: Named) => ({ id: d.id, name: d.name, ...Object.fromEntries(Object.keys(fields).map((k) => [k, d[k]])) });
  resourceReads<Named>(app, { ...o, schema, view });
  const body = Type.Object({ name: PlaceName, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) });
  const errors = { ...commonErrors, 409: Conflict(o.describe.conflict, o.describe.conflictFields), 412: Stale };
  const message = (done: string) => `${o.noun} ${done} successfully`;

  app.post(o.path, {
    config: { permission: o.writePermission },
    schema: { tags: o.tags, summary: `Add a ${o.noun.toLowerCase()}`, description: o.describe.add, headers: IdempotencyHeaders, body, response: { 201: withHeaders(Confirmation, Headers.location), ...errors } },
  }, async (request, reply) => {
    const { name, ...rest } = request.body;
    const result = await app.deps.commands.handle(o.decider, o.stream, o.add(newResourceId(request, o.kind), name.trim(), rest), writeContext(request));
    const id = o.createdId(result.events[0]!);
    await app.readYourWrite(result.position, `${o.path}/${id}`);
    return reply.code(201).header('location', `${o.path}/${id}`).send({ id, message: message('added') });
  });

  app.put(`${o.path}/:id`, {
    config: { permission: o.writePermission },
    preValidation: readOnlyFields(body, storedAs(app, o.collection, view)),
    schema: { tags: o.tags, summary: `Rename a ${o.noun.toLowerCase()}`, headers: IfMatchHeaders, params: IdParams, body, response: { 200: Confirmation, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const { name, ...rest } = request.body;
    const result = await app.deps.commands.handle(o.decider, o.stream, o.rename(id, name.trim(), ifMatch(request), rest), writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: message('updated') };
  });

  app.delete(`${o.path}/:id`, {
    config: { permission: o.writePermission },
    schema: { tags: o.tags, summary: `Delete a ${o.noun.toLowerCase()}`, description: o.describe.remove, params: IdParams, response: { 200: Confirmation, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(o.decider, o.stream, o.remove(id), writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: message('deleted') };
  });
}
