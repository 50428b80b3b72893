import { ROLES, STAFF_STREAM, forbidden, notFound, roster, validationFailed, type Role } from '@comanda/domain';
import { USERS, type UserView } from '@comanda/read-models';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { hashSecret } from '../auth/pin.js';
import { Headers, IdParams, commonErrors, withHeaders } from '../http/schemas.js';
import { ifMatch, newResourceId, setEtag, writeContext } from '../http/write-context.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: '1–64 characters, unique ignoring case' });
const Pin = Type.String({ pattern: '^[0-9]{4,12}$', description: '4–12 digits' });
const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
const User = Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema, created_at: Type.String({ format: 'date-time' }) });
const Confirmation = Type.Object({ id: Type.String(), message: Type.String() });
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'Duplicate name, or the last admin would be removed' }), 412: Type.Ref('Message') };

const view = (u: UserView) => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

/** Managers manage staff but cannot create, change or remove admins, nor make anyone admin. */
function guardAdmins(request: FastifyRequest, touches: Array<Role | undefined>) {
  if (request.staff!.role !== 'admin' && touches.includes('admin')) throw forbidden();
}

/** Staff accounts: admins and managers only; responses never carry PIN hashes or tokens. */
export default async function userRoutes(app: FastifyInstance) {
  const users = app.deps.readStore.collection<UserView>(USERS);
  const manage = app.authorize('users:manage');
  const current = async (id: string) => (await app.deps.commands.state(roster, STAFF_STREAM)).state.members[id];

  app.get('/users', { onRequest: manage, schema: { tags: ['users'], summary: 'List staff', response: { 200: Type.Array(User), ...errors } } },
    async () => (await users.find({}, { sort: { name_key: 1 } })).map(view));

  app.get('/users/:id', { onRequest: manage, schema: { tags: ['users'], summary: 'One member of staff, with its version as ETag', params: IdParams, response: { 200: withHeaders(User, Headers.etag), ...errors } } }, async (request, reply) => {
    const user = await users.get((request.params as { id: string }).id);
    if (!user) throw notFound();
    setEtag(reply, user.version);
    return view(user);
  });

  app.post('/users', {
    onRequest: manage,
    schema: { tags: ['users'], summary: 'Add a member of staff', body: Type.Object({ name: Name, pin: Pin, role: RoleSchema }), response: { 201: withHeaders(Confirmation, Headers.location), ...errors } },
  }, async (request, reply) => {
    const body = request.body as { name: string; pin: string; role: Role };
    guardAdmins(request, [body.role]);
    const name = body.name.trim();
    const userId = newResourceId(request, 'user');
    const result = await app.deps.commands.handle(roster, STAFF_STREAM, {
      type: 'createUser', userId, name, role: body.role, pinHash: await hashSecret(body.pin, app.deps.masterKey, name), at: app.now(),
    }, writeContext(request));
    await app.readYourWrite(result.position);
    const created = result.events[0]!.data as { userId: string };
    return reply.code(201).header('location', `/users/${created.userId}`).send({ id: created.userId, message: 'User added successfully' });
  });

  app.put('/users/:id', {
    onRequest: manage,
    schema: {
      tags: ['users'],
      summary: 'Rename, change PIN or role',
      description: 'A rename needs the PIN as well: the user name is part of the PIN salt, so the PIN is hashed again.',
      params: IdParams,
      body: Type.Object({ name: Type.Optional(Name), pin: Type.Optional(Pin), role: Type.Optional(RoleSchema) }),
      response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { name?: string; pin?: string; role?: Role };
    const member = await current(id);
    if (!member) throw notFound();
    guardAdmins(request, [member.role, body.role]);
    const name = body.name?.trim();
    const renaming = name !== undefined && name !== member.name;
    if (renaming && !body.pin) throw validationFailed([{ field: 'pin', message: 'is required to rename a user (the name is part of the PIN salt)' }]);
    const pinHash = body.pin ? await hashSecret(body.pin, app.deps.masterKey, renaming ? name! : member.name) : undefined;
    const result = await app.deps.commands.handle(roster, STAFF_STREAM, {
      type: 'updateUser', userId: id, ifMatch: ifMatch(request), role: body.role,
      ...(renaming ? { rename: { name: name!, pinHash: pinHash! } } : { pinHash }),
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'User updated successfully' };
  });

  app.delete('/users/:id', { onRequest: manage, schema: { tags: ['users'], summary: 'Remove a member of staff (their sessions end at once)', params: IdParams, response: { 200: Confirmation, ...errors } } }, async (request) => {
    const { id } = request.params as { id: string };
    const member = await current(id);
    if (!member) throw notFound();
    guardAdmins(request, [member.role]);
    const result = await app.deps.commands.handle(roster, STAFF_STREAM, { type: 'deleteUser', userId: id }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'User deleted successfully' };
  });
}
