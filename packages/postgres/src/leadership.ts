import pg from 'pg';

/** The advisory-lock class of Comanda's leaders (two-int form: never meets the event store's bigint keys). */
const LEADER_CLASS = 0x436f6d; // "Com"

export interface Leadership {
  /** Resolves when the lead is lost (its connection gone or unanswered): the holder must stop at once. */
  readonly lost: Promise<Error>;
  /** Gives the lead up (a clean stop): another waiting process takes it. */
  release(): Promise<void>;
}

export interface LeadershipOptions {
  /** How often a waiting process asks for the lock, and the holder checks its connection. Default 1 s. */
  everyMs?: number;
  /** Told once when another process holds the lead (this one stands by). */
  onStandby?(): void;
  /** Stops waiting (a standby asked to stop): the promise rejects. */
  signal?: AbortSignal;
}

/**
 * One process of several holds the lead named `name`: a session-level advisory lock on a connection
 * of its own, which PostgreSQL releases the moment that connection ends — a holder killed with -9
 * included, since the kernel closes its socket. Waiting processes ask again every `everyMs`, so one of
 * them takes over within about that. The holder checks its connection as often; when it is gone or
 * does not answer, `lost` resolves and the holder must stop before another may have taken over.
 */
export async function becomeLeader(url: string, name: string, options: LeadershipOptions = {}): Promise<Leadership> {
  const everyMs = options.everyMs ?? 1_000;
  let toldStandby = false;
  for (;;) {
    if (options.signal?.aborted) throw new Error('stopped while standing by');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: everyMs * 3, query_timeout: everyMs * 3 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      for (;;) {
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS held', [LEADER_CLASS, name]);
        if (rows[0]?.held) return hold(client, everyMs);
        if (!toldStandby) options.onStandby?.();
        toldStandby = true;
        await pause(everyMs, options.signal);
        if (options.signal?.aborted) throw new Error('stopped while standing by');
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      if (options.signal?.aborted) throw error;
      // The server away (restart, failover): ask again once it is back.
      await pause(everyMs, options.signal);
    }
  }
}

function hold(client: pg.Client, everyMs: number): Leadership {
  let settle!: (error: Error) => void;
  const lost = new Promise<Error>((resolve) => (settle = resolve));
  let released = false;
  const lose = (error: Error) => {
    clearInterval(check);
    if (!released) settle(error);
  };
  client.on('error', lose);
  client.on('end', () => lose(new Error('the leader connection ended')));
  const check = setInterval(() => {
    client.query('SELECT 1').catch((error: Error) => lose(error));
  }, everyMs);
  check.unref();
  return {
    lost,
    release: async () => {
      released = true;
      clearInterval(check);
      await client.end().catch(() => undefined);
    },
  };
}

const pause = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
});
