import type { Position } from '@comanda/event-store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether the route may answer 202 (its write recorded, not yet readable when the wait ran out),
     * documented as such (plugins/openapi.ts): true for a write whose answer is read back from the
     * read models (`readBack`); by default every command write; false for a write route that waits
     * for nothing (it changes nothing, or answers from elsewhere).
     */
    readsBack?: boolean;
  }
  interface FastifyInstance {
    deps: AppDeps;
    /**
     * Read-your-writes: waits (bounded by COMANDA_CONSISTENCY_WAIT_MS) until the write, its reactions
     * and what they appended are in the read models, so the client's next GET sees them. When the
     * bound is reached first, throws WrittenNotYetVisible, answered 202 with `location` (where to read
     * it; by default the nearest readable path of the request), never a 2xx the next read would belie.
     */
    readYourWrite(position: Position | null, location?: string): Promise<void>;
    /** The same wait, for an answer read back from the read models (a 202 says where it will be read). */
    readBack(position: Position | null, location: string): Promise<void>;
  }
}

/** A write that is recorded (its events appended) but not yet in the read models the answer is read from. */
export class WrittenNotYetVisible extends Error {
  override name = 'WrittenNotYetVisible';
  readonly location?: string;
  constructor(location?: string) {
    super('recorded, not yet visible in the read models');
    this.location = location;
  }
}

/**
 * Where a write's 202 sends the client to read it: the request's path itself if it can be read (GET),
 * else its nearest readable parent (`POST /orders/{id}/fire` → `/orders/{id}`), the path as sent.
 */
export function whereToRead(app: FastifyInstance, request: FastifyRequest): string | undefined {
  const pattern = (request.routeOptions.url ?? '').split('/');
  const path = request.url.split('?')[0]!.split('/');
  if (pattern.length !== path.length) return undefined;
  for (let n = pattern.length; n > 1; n--) {
    if (app.hasRoute({ method: 'GET', url: pattern.slice(0, n).join('/') })) return path.slice(0, n).join('/');
  }
  return undefined;
}

export default fp(async function consistency(app: FastifyInstance, deps: AppDeps) {
  app.decorate('deps', deps);
  const readYourWrite = async (position: Position | null, location?: string) => {
    if (position === null || (await deps.gate.waitFor(position, deps.config.consistencyWaitMs))) return;
    app.log.warn({ position: position.toString() }, 'the write or its reactions not yet in the read models at the bound: answered 202');
    throw new WrittenNotYetVisible(location);
  };
  app.decorate('readYourWrite', readYourWrite);
  app.decorate('readBack', readYourWrite);
});
