import { SESSIONS, type SessionView, USERS, type UserView } from '@comanda/read-models';
import { revokeSession } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';

const DeviceSession = Type.Object({
  id: Type.String({ description: 'the session' }),
  user_id: Type.String(),
  user: Type.String({ description: 'the member signed in' }),
  role: Type.String(),
  device: Type.Union([Type.String(), Type.Null()], { description: 'the label the device signed in with, or its browser; null for sign-ins before devices were recorded' }),
  signed_in_at: Type.String({ format: 'date-time' }),
  last_refreshed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'a tablet in use refreshes about once a minute' }),
});
const RevokeBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'why the session is ended, for the audit trail' }) });
const iso = (ms: number) => new Date(ms).toISOString();
const REVOKE = 'Its refresh token is refused from now on and its access token at its next request, on every replica. Recorded in the audit trail (kind session_revoked) with who and why. A manager cannot end an admin\'s session. Retried with the same Idempotency-Key, answered the same.';

/**
 * The devices signed in, for a manager (issue 59): a lost tablet or a waiter gone home is signed out
 * from here. Nothing that signs in is ever listed (no token, no PIN).
 */
export default async function deviceSessionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = app.deps.readStore.collection<SessionView>(SESSIONS);
  const users = app.deps.readStore.collection<UserView>(USERS);

  app.get('/sessions', {
    config: { permission: 'sessions:manage' },
    schema: {
      tags: ['users'], summary: 'The sessions still open: who, on which device, since when',
      description: 'Newest sign-in first. Expired sessions and those of members since removed are left out.',
      response: { 200: Type.Array(DeviceSession), 401: commonErrors[401], 403: commonErrors[403] },
    },
  }, async () => {
    const now = app.now();
    const [open, staff] = await Promise.all([sessions.find({ expires_at: { $gt: now } }, { sort: { signed_in_at: -1 } }), users.find({})]);
    const byId = new Map(staff.map((u) => [u.id, u]));
    return open.flatMap((s) => {
      const member = byId.get(s.user_id);
      if (!member) return [];
      return [{
        id: s.id, user_id: s.user_id, user: member.name, role: member.role, device: s.device,
        signed_in_at: iso(s.signed_in_at), last_refreshed_at: s.last_refreshed_at === null ? null : iso(s.last_refreshed_at),
      }];
    });
  });

  app.post('/sessions/:id/revoke', {
    config: { permission: 'sessions:manage' },
    schema: {
      tags: ['users'], summary: 'Sign a device out: end its session, with why', description: REVOKE, params: IdParams, body: RevokeBody,
      response: {
        200: Type.Object({ id: Type.String(), message: Type.Literal('Session revoked') }),
        ...commonErrors,
        409: Type.Ref('Message', { description: 'The session has already ended (signed out, revoked or expired)' }),
      },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await revokeSession(app.deps.commands, {
      sessionId: id, by: request.staff!.id, actorRole: request.staff!.role, why: request.body.reason, at: app.now(), context: writeContext(request),
    });
    await app.readYourWrite(position);
    return { id, message: 'Session revoked' as const };
  });
}
