import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type PostgresServer, postgresAvailable, startPostgres } from '@comanda/postgres';
import { PostgresEventStore } from '@comanda/event-store/postgres';
import { postgresCpuSeconds } from './postgres-cpu.js';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';

/**
 * Appends/s of Comanda's PostgreSQL event store beside Emmett's (`@event-driven-io/emmett-postgresql`,
 * the same server, one database each), with streams shaped like orders: a placement on a new stream
 * (`no_stream`), then lines added at the expected revision, then the next order. The sides take
 * turns in alternating rounds (A B B A …) so a neighbour's load on a shared machine falls on both.
 */
export interface AppendFigures {
  writers: number;
  comanda: number;
  emmett: number;
  /** Cores PostgreSQL's processes used during each side's rounds (CPU seconds / wall seconds). */
  comandaPgCores: number;
  emmettPgCores: number;
}

/** Appends to one order before the next: the placement and four lines, as a table's order grows. */
const APPENDS_PER_ORDER = 5;
const line = () => ({ lineId: randomUUID(), dishId: randomUUID(), priceCents: 1250, notes: '' });
const placed = () => ({ orderId: randomUUID(), userId: randomUUID(), tableId: null, waiter: 'w', lines: [line(), line()] });

interface Side {
  /** Appends the `i`-th event of an order (0: the placement on a new stream) and returns the next expected revision. */
  append(stream: string, i: number, expected: bigint | null): Promise<bigint>;
  close(): Promise<void>;
}

function comandaSide(url: string, writers: number): Side {
  const store = new PostgresEventStore(url, { poolSize: writers });
  const metadata = { occurredAt: Date.now(), schemaVersion: 1 };
  return {
    async append(stream, i, expected) {
      const event = i === 0 ? { id: randomUUID(), type: 'OrderPlaced', data: placed(), metadata } : { id: randomUUID(), type: 'LineAdded', data: line(), metadata };
      const r = await store.append(stream, [event], expected === null ? 'no_stream' : Number(expected));
      return BigInt(r.nextRevision);
    },
    close: () => store.close(),
  };
}

function emmettSide(url: string, writers: number): Side {
  const pool = new pg.Pool({ connectionString: url, max: writers });
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  return {
    async append(stream, i, expected) {
      const event = i === 0 ? { type: 'OrderPlaced', data: placed() } : { type: 'LineAdded', data: line() };
      const r = await store.appendToStream(stream, [event], { expectedStreamVersion: expected ?? STREAM_DOES_NOT_EXIST });
      return r.nextExpectedStreamVersion;
    },
    async close() {
      await store.close();
      await pool.end().catch(() => undefined);
    },
  };
}

/** `writers` loops, each appending order after order, for `ms`: appends per second and PostgreSQL's cores. */
async function round(side: Side, writers: number, ms: number, server: PostgresServer): Promise<{ rate: number; pgCores: number }> {
  const deadline = Date.now() + ms;
  const cpu = postgresCpuSeconds(server.dataDir);
  const start = process.hrtime.bigint();
  let appends = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (Date.now() < deadline) {
        const stream = `order-${randomUUID()}`;
        let expected: bigint | null = null;
        for (let i = 0; i < APPENDS_PER_ORDER && Date.now() < deadline; i++) {
          expected = await side.append(stream, i, expected);
          appends++;
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { rate: appends / seconds, pgCores: (postgresCpuSeconds(server.dataDir) - cpu) / seconds };
}

async function createDatabase(server: PostgresServer, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.url.replace(/\/[^/]+$/, `/${name}`);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Every writer count in `writerCounts`: `rounds` rounds per side of `ms` each, after one warm-up round per side. */
export async function appendsBesideEmmett(writerCounts: number[], rounds = 4, ms = 3000): Promise<AppendFigures[] | string> {
  if (!postgresAvailable()) return 'PostgreSQL is not installed';
  const server = await startPostgres();
  try {
    const comandaUrl = await createDatabase(server, 'comanda_appends');
    const emmettUrl = await createDatabase(server, 'emmett_appends');
    const figures: AppendFigures[] = [];
    for (const writers of writerCounts) {
      const sides = { comanda: comandaSide(comandaUrl, writers), emmett: emmettSide(emmettUrl, writers) };
      const measured = { comanda: [] as Array<{ rate: number; pgCores: number }>, emmett: [] as Array<{ rate: number; pgCores: number }> };
      try {
        // Warm-up: schemas created, pools filled, plans cached; not counted.
        await round(sides.comanda, writers, 500, server);
        await round(sides.emmett, writers, 500, server);
        for (let r = 0; r < rounds; r++) {
          const order = r % 2 === 0 ? (['comanda', 'emmett'] as const) : (['emmett', 'comanda'] as const);
          for (const name of order) measured[name].push(await round(sides[name], writers, ms, server));
        }
      } finally {
        await sides.comanda.close();
        await sides.emmett.close();
      }
      // Rounds are equally long: the mean rate is total appends over total time.
      const mean = (xs: Array<{ rate: number; pgCores: number }>, f: 'rate' | 'pgCores') => sum(xs.map((x) => x[f])) / xs.length;
      figures.push({
        writers,
        comanda: mean(measured.comanda, 'rate'),
        emmett: mean(measured.emmett, 'rate'),
        comandaPgCores: mean(measured.comanda, 'pgCores'),
        emmettPgCores: mean(measured.emmett, 'pgCores'),
      });
    }
    return figures;
  } finally {
    await server.destroy();
  }
}
