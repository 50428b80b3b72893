import type { FastifyInstance } from 'fastify';

/** One part's state for /health: fine when it answers `up` (adapters) or `live` (log followers). */
export interface HealthCheck {
  name: string;
  check(): Promise<string>;
  /**
   * Shown on /health but not waited for: the restaurant can take orders without it (the owner's
   * reports, still folding the log after a start, answer 503 on /reports meanwhile).
   */
  optional?: boolean;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, string>;
  /** The checks not `up`/`live`: what /health/ready is waiting for. */
  waitingFor: string[];
}

const fine = (state: string) => state === 'up' || state === 'live';

/** Runs every check at once; a check that throws reads `down: <message>`. */
export async function checkHealth(checks: readonly HealthCheck[]): Promise<HealthReport> {
  const results = await Promise.all(
    checks.map(async (h) => {
      try {
        return [h.name, await h.check()] as const;
      } catch (error) {
        return [h.name, `down: ${(error as Error).message}`] as const;
      }
    }),
  );
  const optional = new Set(checks.filter((h) => h.optional).map((h) => h.name));
  const waitingFor = results.filter(([name, state]) => !fine(state) && !optional.has(name)).map(([name]) => name);
  return { ok: waitingFor.length === 0, checks: Object.fromEntries(results), waitingFor };
}

/**
 * /health, /health/live and /health/ready for a process that runs no API (projector, wallet bridge),
 * in the API's shapes: supervisors and compose health checks ask every process the same way.
 */
export async function healthRoutes(app: FastifyInstance, options: { checks: readonly HealthCheck[] }) {
  app.get('/health', async (_request, reply) => {
    const { ok, checks } = await checkHealth(options.checks);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });
  app.get('/health/live', async () => ({ status: 'live' }));
  app.get('/health/ready', async (_request, reply) => {
    const { ok, waitingFor } = await checkHealth(options.checks);
    return ok ? { status: 'ready' } : reply.code(503).send({ status: 'not_ready', waitingFor });
  });
}
