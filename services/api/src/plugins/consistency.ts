import type { Position } from '@comanda/event-store';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.js';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Waits (bounded) until the read models include a write, so the client's next GET sees it. */
    readYourWrite(position: Position | null): Promise<void>;
  }
}

export default fp(async function consistency(app: FastifyInstance, deps: AppDeps) {
  app.decorate('deps', deps);
  app.decorate('readYourWrite', async (position: Position | null) => {
    if (position === null) return;
    const reached = await deps.gate.waitFor(position, deps.config.consistencyWaitMs);
    if (!reached) app.log.warn({ position: position.toString() }, 'read models behind the write: answered without waiting longer');
  });
});
