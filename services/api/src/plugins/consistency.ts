import type { Position } from '@comanda/event-store';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer is read back from the read models (`readBack`): it may be a 202 (documented as such). */
    readsBack?: boolean;
  }
  interface FastifyInstance {
    deps: AppDeps;
    /** Waits (bounded) until the read models include a write, so the client's next GET sees it. */
    readYourWrite(position: Position | null): Promise<boolean>;
    /**
     * The same wait, for an answer read back from the read models: when they are still behind, throws
     * WrittenNotYetVisible, answered 202 with `location` (where to read it), never an answer (or a 404)
     * read from models that do not hold the write yet.
     */
    readBack(position: Position | null, location: string): Promise<void>;
  }
}

/** A write that is recorded (its events appended) but not yet in the read models the answer is read from. */
export class WrittenNotYetVisible extends Error {
  override name = 'WrittenNotYetVisible';
  constructor(readonly location?: string) {
    super('recorded, not yet visible in the read models');
  }
}

export default fp(async function consistency(app: FastifyInstance, deps: AppDeps) {
  app.decorate('deps', deps);
  const readYourWrite = async (position: Position | null) => {
    if (position === null) return true;
    const reached = await deps.gate.waitFor(position, deps.config.consistencyWaitMs);
    if (!reached) app.log.warn({ position: position.toString() }, 'read models behind the write: answered without waiting longer');
    return reached;
  };
  app.decorate('readYourWrite', readYourWrite);
  app.decorate('readBack', async (position: Position | null, location: string) => {
    if (!(await readYourWrite(position))) throw new WrittenNotYetVisible(location);
  });
});
