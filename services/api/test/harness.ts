import { Writable } from 'node:stream';
import { ALL_REPORTS, LiveReports } from '@comanda/analytics';
import pino from 'pino';
import { MemoryAttemptCounter } from '@comanda/attempts';
import { InProcessBus } from '@comanda/bus';
import { loadConfig, type Config } from '@comanda/config';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { commandObserver, instrumentStore } from '@comanda/metrics';
import { Projector } from '@comanda/projector';
import type { FastifyInstance } from 'fastify';
import { bootstrapFirstAdmin, buildApp } from '../src/index.js';
import type { AppDeps } from '../src/deps.js';

export const ADMIN = { name: 'admin', pin: '1234', walletPassword: 'wallet-pass' };

export const cookieHeader = (cookies: Array<{ name: string; value: string }>) =>
  cookies.filter((c) => c.value !== '').map((c) => `${c.name}=${c.value}`).join('; ');

/** An app on memory adapters with a running projector; `logs` holds every line it logged. */
export async function testApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  extraRoutes?: (app: FastifyInstance) => void,
  extraDeps: Pick<AppDeps, 'node' | 'metrics' | 'reports' | 'rates'> = {},
  /** A log written beforehand (e.g. by an earlier release) to start from; a fresh one when absent. */
  log: MemoryEventStore = new MemoryEventStore(),
) {
  const config = { ...loadConfig({ LOG_LEVEL: 'info', ...env }), ...overrides };
  const metrics = extraDeps.metrics;
  const store = metrics ? instrumentStore(log, metrics) : log;
  const readStore = new MemoryReadStore();
  const attempts = new MemoryAttemptCounter();
  const bus = new InProcessBus();
  const newProjector = () => new Projector({ store, readStore, projections: allProjections, logger: pino({ level: 'silent' }) });
  let projector = newProjector();
  await projector.start();
  // The owner's reports follow the log as in the standalone shape (GET /reports/{name}).
  const reports = new LiveReports(store, ALL_REPORTS, config.timezone);
  await reports.start();
  const logs: string[] = [];
  const logStream = new Writable({ write: (chunk, _enc, cb) => (logs.push(chunk.toString()), cb()) });
  const clock = { now: Date.now() };
  const commands = new CommandHandler(store, undefined, metrics ? commandObserver(metrics) : undefined);
  const masterKey = 'k'.repeat(64);
  // The projector can be paused (read models behind the log, as in the distributed shape when it is
  // slow or restarting) and resumed from its checkpoint.
  const gate = { waitFor: (position: bigint, timeoutMs: number) => projector.waitFor(position, timeoutMs) };
  const pauseProjector = () => projector.stop();
  const resumeProjector = async () => {
    projector = newProjector();
    await projector.start();
  };
  const app = await buildApp(
    {
      config, store, readStore, attempts, bus, commands, gate, masterKey, now: () => clock.now,
      health: [{ name: 'projector', check: async () => projector.state }],
      reports,
      ...extraDeps,
    },
    { logStream },
  );
  extraRoutes?.(app);
  await app.ready();
  const announced: string[] = [];
  await bootstrapFirstAdmin(commands, masterKey, { adminName: ADMIN.name, adminPin: ADMIN.pin, walletPassword: ADMIN.walletPassword }, (l) => announced.push(l));

  /** Logs in and returns the Cookie header value carrying both tokens. */
  const login = async (name: string, pin: string) => {
    const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { name, pin } });
    if (res.statusCode !== 200) throw new Error(`login ${name} failed: ${res.statusCode} ${res.body}`);
    return cookieHeader(res.cookies);
  };
  const sessions = new Map<string, string>();
  /** A signed-in member of staff with the role (created on first use), as a Cookie header. */
  const as = async (role: 'admin' | 'manager' | 'waiter' | 'kitchen') => {
    if (!sessions.has(role)) {
      if (role !== 'admin') {
        const admin = await as('admin');
        const res = await app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload: { name: `${role}-1`, pin: '4321', role } });
        if (res.statusCode !== 201) throw new Error(`creating ${role} failed: ${res.body}`);
      }
      sessions.set(role, await login(role === 'admin' ? ADMIN.name : `${role}-1`, role === 'admin' ? ADMIN.pin : '4321'));
    }
    return sessions.get(role)!;
  };
  return {
    app, store, readStore, attempts, bus, projector, logs, config, clock, commands, login, as, announced, pauseProjector, resumeProjector,
    close: async () => {
      await app.close();
      await projector.stop();
      await reports.stop();
    },
  };
}

/** The test app listening on loopback; `request` goes over HTTP, with a session's Cookie header when given. */
export async function servedApp(env: Record<string, string> = {}, log?: MemoryEventStore) {
  const s = await testApp(env, {}, undefined, {}, log);
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const request = (path: string, cookie: string | null, headers: Record<string, string> = {}, method = 'GET', body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  return { ...s, request, url: base };
}
