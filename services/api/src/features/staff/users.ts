import { ROLES, notFound } from '@comanda/domain';
import { type HashPin, addStaff, changeStaff, removeStaff } from '@comanda/workflows';
import { USERS, type UserView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { hashSecret } from '../../auth/pin.js';
import { Headers, IdParams, OptionalPagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { storedAs } from '../../http/representation.js';
import { findPage } from '../../http/pages.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { unchanged, versionTag } from '../../plugins/revalidation.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: '1–64 characters, unique ignoring case' });
const Pin = Type.String({ pattern: '^[0-9]{4,12}$', description: '4–12 digits' });
const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
const User = Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema, created_at: Type.String({ format: 'date-time' }) });
const Confirmation = Type.Object({ id: Type.String(), message: Type.String() });
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'Duplicate name, or the last admin would be removed' }), 412: Type.Ref('Message') };

const view = (u: UserView) => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

/** Staff accounts: admins and managers only; responses never carry PIN hashes or tokens. */
const ChangeBody = Type.Object({ name: Type.Optional(Name), pin: Type.Optional(Pin), role: Type.Optional(RoleSchema) });

export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = app.deps.readStore.collection<UserView>(USERS);
  const hashPin: HashPin = (pin, name) => hashSecret(pin, app.deps.masterKey, name);

  app.get('/users', {
    config: { permission: 'users:manage' },
    schema: { tags: ['users'], summary: 'List staff', querystring: OptionalPagination, response: { 200: withHeaders(Type.Array(User), Headers.totalCount), ...errors } },
  }, async (request, reply) => (await findPage(reply, users, {}, { sort: { name_key: 1 } }, request.query, null)).items.map(view));

  app.get('/users/:id', { config: { permission: 'users:manage' }, schema: { tags: ['users'], summary: 'One member of staff, with its version as ETag', params: IdParams, response: { 200: withHeaders(User, Headers.etag), ...errors } } }, async (request, reply) => {
    const user = await users.get(request.params.id);
    if (!user) throw notFound();
    if (unchanged(request, reply, versionTag(user.version))) return reply;
    return view(user);
  });

  app.post('/users', {
    config: { permission: 'users:manage' },
    schema: { tags: ['users'], summary: 'Add a member of staff', body: Type.Object({ name: Name, pin: Pin, role: RoleSchema }), response: { 201: withHeaders(Confirmation, Headers.location), ...errors } },
  }, async (request, reply) => {
    const { name, pin, role } = request.body;
    const { userId, position } = await addStaff(app.deps.commands, hashPin, {
      userId: newResourceId(request, 'user'), name, pin, role, at: app.now(), actorRole: request.staff!.role, context: writeContext(request),
    });
    await app.readYourWrite(position, `/users/${userId}`);
    return reply.code(201).header('location', `/users/${userId}`).send({ id: userId, message: 'User added successfully' });
  });

  app.put('/users/:id', {
    config: { permission: 'users:manage' },
    preValidation: readOnlyFields(ChangeBody, storedAs(app, USERS, view)),
    schema: {
      tags: ['users'],
      summary: 'Rename, change PIN or role',
      description: 'A rename needs the PIN as well: the user name is part of the PIN salt, so the PIN is hashed again.',
      params: IdParams,
      body: ChangeBody,
      response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await changeStaff(app.deps.commands, hashPin, {
      userId: id, ...request.body, ifMatch: ifMatch(request), actorRole: request.staff!.role, context: writeContext(request),
    });
    await app.readYourWrite(position);
    return { id, message: 'User updated successfully' };
  });

  app.delete('/users/:id', { config: { permission: 'users:manage' }, schema: { tags: ['users'], summary: 'Remove a member of staff (their sessions end at once)', params: IdParams, response: { 200: Confirmation, ...errors } } }, async (request) => {
    const { id } = request.params;
    const { position } = await removeStaff(app.deps.commands, { userId: id, actorRole: request.staff!.role, context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'User deleted successfully' };
  });
}
