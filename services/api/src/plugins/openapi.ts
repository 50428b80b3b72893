import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type TSchema, Type } from 'typebox';
import { Headers } from '../http/schemas.js';
import { OPERATION_IDS } from './operation-ids.js';

type Hook = (...args: never[]) => unknown;
type Responses = Record<string, unknown>;

/** A stable operationId from method and path: GET /orders/:id/dishes → getOrdersByIdDishes. */
export function operationId(method: string, url: string): string {
  const words = url.split('/').filter(Boolean).map((segment) => {
    const param = segment.startsWith(':');
    const pascal = segment.replace(/^:/, '').split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
    return param ? `By${pascal}` : pascal;
  });
  return method.toLowerCase() + (words.join('') || 'Root');
}

const hooks = (route: RouteOptions): Hook[] => [route.onRequest ?? []].flat() as Hook[];

/** Writes that do not take an Idempotency-Key: sessions (a replayed refresh would revive a rotated token) and the node's webhooks. */
const NO_IDEMPOTENCY = /^\/(auth\/|wallet\/auth$|wallet\/logout$|webhooks\/)/;
/** The wallet's routes answer from the Lightning node, never from the read models: they wait for nothing. */
const ANSWERED_BY_THE_NODE = /^\/wallet\//;

/**
 * Whether a route may answer 202 (plugins/consistency.ts): as it says (`readsBack`), else every write
 * of a command, which waits for itself and its reactions in the read models (`readYourWrite`). A
 * route that says nothing is documented with the 202 it may give, never without it.
 */
export const mayAnswerAccepted = (route: Pick<RouteOptions, 'url' | 'config'>, writes: boolean): boolean =>
  route.config?.readsBack ?? (writes && !NO_IDEMPOTENCY.test(route.url) && !ANSWERED_BY_THE_NODE.test(route.url));
const IdempotencyKey = Type.Optional(Type.String({
  minLength: 1, maxLength: 255,
  description: 'Any unique string per intended write (a UUID): the same request repeated with the same key (a retry after a lost answer) is applied once and answered as the first was',
}));

/**
 * Documents a `{message}` answer: beside one already documented with the same shape, the descriptions
 * are joined (an `anyOf` of one schema twice says nothing more and linters flag it).
 */
function addMessage(response: Responses, status: number, description: string): void {
  const known = response[status] as { $ref?: string; description?: string } | undefined;
  if (known === undefined) response[status] = Type.Ref('Message', { description });
  else if (known.$ref === 'Message') response[status] = Type.Ref('Message', { description: `${known.description ?? ''}; or ${description}` });
  else response[status] = Type.Union([known as never, Type.Ref('Message', { description })], { description: `${known.description ?? ''}; or ${description}` });
}

/** The route's header schema with `idempotency-key` declared beside its own headers. */
function withIdempotencyKey(headers: unknown) {
  const own = (headers as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
  return own['idempotency-key'] ? headers : Type.Object({ ...own, 'idempotency-key': IdempotencyKey });
}

/**
 * Completes every route's OpenAPI entry from what the route really does, so a new route is documented
 * without extra code: an operationId; `security` (the access-token cookie when the route's `config.permission` guards it,
 * plus the wallet cookie behind `walletUnlocked`; an explicit empty list for open routes); and the
 * answers the framework gives on its own: 400 for bad input, 401/403 for guarded routes, 413 and 415
 * for bodies.
 */
export default fp(async function openapi(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.includes('HEAD') || (route.schema as { hide?: boolean } | undefined)?.hide) return;
    const schema: Record<string, unknown> = { ...(route.schema ?? {}) };
    const permission = route.config?.permission;
    const guard = permission !== undefined && permission !== 'anyone';
    const wallet = hooks(route).some((h) => h.name === 'walletUnlocked');
    schema.operationId ??= OPERATION_IDS[`${methods[0]} ${route.url}`] ?? operationId(methods[0]!, route.url);
    schema.summary ??= `${methods[0]} ${route.url}`;
    schema.description ??= `${String(schema.summary)}.`;
    const writes = !methods.every((m) => m === 'GET' || m === 'HEAD' || m === 'OPTIONS');
    if (writes && !NO_IDEMPOTENCY.test(route.url)) schema.headers = withIdempotencyKey(schema.headers);
    schema.security ??= guard ? (wallet ? [{ accessToken: [], walletAccessToken: [] }, { bearerAuth: [], walletAccessToken: [] }] : [{ accessToken: [] }, { bearerAuth: [] }]) : [];
    const response: Responses = { ...((schema.response as Responses | undefined) ?? {}) };
    const add = (status: number, value: unknown) => {
      if (response[status] === undefined && response[String(status)] === undefined) response[status] = value;
    };
    if (schema.body || schema.params || schema.querystring || schema.headers) add(400, Type.Ref('ValidationFailed'));
    if (guard) {
      add(401, Type.Ref('Message', { description: "{message:'Unauthorized'}: missing, invalid, expired or revoked access token" }));
      add(403, Type.Ref('Message', { description: "{message:'Unauthorized API access'}: the role lacks the permission" }));
    }
    if (schema.params) {
      // A path segment the router cannot take as a parameter (longer than 100 characters) finds no route.
      addMessage(response, 404, '{message}: no route matches (e.g. a path parameter over 100 characters)');
    }
    if (schema.body) {
      add(413, Type.Ref('Message', { description: 'Body over 1 MiB' }));
      add(415, Type.Ref('Message', { description: 'Content-Type is not application/json (a body sent as text/plain or a form): the message says what to send' }));
    }
    if (writes) {
      // plugins/origins.ts: a browser page of another origin.
      addMessage(response, 403, "{message:'Origin … is not allowed: …'}: the request's Origin is neither this service's own (behind a proxy listed in COMANDA_TRUSTED_PROXIES, the host and scheme it forwards) nor in COMANDA_ALLOWED_ORIGINS; the message names both origins and the setting");
    }
    if (!methods.includes('GET')) {
      // A stream contended past every retry (services/api/src/plugins/errors.ts).
      add(503, { ...Type.Ref('Message', { description: 'Too many changes at once, or a store or the bus out of reach: nothing was saved; try again after Retry-After' }), headers: Headers.retryAfter });
    }
    if (mayAnswerAccepted(route, writes)) {
      // Recorded, but the read models (or the write's reactions) were still behind when the wait ran out (plugins/consistency.ts).
      add(202, Type.Object({ message: Type.String(), location: Type.Optional(Type.String({ description: 'where the written resource will be read' })) }, {
        description: 'Recorded; it, or what it sets off (an order following its kitchen, a ticket following its order, a table freed), was not yet in the read models within COMANDA_CONSISTENCY_WAIT_MS, so the answer is not the usual one: read the location (also in `Location`) again in a moment. Retrying with the same Idempotency-Key answers in full.',
        headers: { location: Type.String({ description: 'where the write will be read' }) },
      }));
    }
    if (methods.includes('GET')) {
      add(503, { ...Type.Ref('Message', { description: 'A store out of reach (a restart, a failover): try again after Retry-After' }), headers: Headers.retryAfter });
    }
    schema.response = response;
    route.schema = schema;
  });
});
