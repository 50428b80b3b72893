import pg from 'pg';

export interface Listener {
  /** True while the LISTEN connection is up: notifications arrive. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Each notification's payload, in commit order. */
  onNotification(payload: string): void;
  /**
   * Called once LISTEN is in place (at first and after every reconnection): whatever was committed
   * while nobody listened has to be read by the caller now. `false` when the connection is lost.
   */
  onListening?(listening: boolean): void;
  onError?(error: unknown): void;
}

interface Registration {
  channel: string;
  options: ListenOptions;
  listening: boolean;
}

const RECONNECT_MS = 1000;

/**
 * One LISTEN connection per server for the whole process, whatever listens (the event store's
 * subscriptions, the API's checkpoints): PostgreSQL wakes every listening backend at every NOTIFY,
 * so each extra connection costs the server a wake-up per notification. It reconnects every second
 * while the server is away.
 */
class SharedConnection {
  private client?: pg.Client;
  private reconnect?: NodeJS.Timeout;
  private readonly listened = new Set<string>();
  readonly registrations = new Set<Registration>();
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  add(registration: Registration): void {
    this.registrations.add(registration);
    if (!this.client && !this.reconnect) void this.connect();
    // Still connecting: pg sends the LISTEN once connected (a failure is the connection's, seen by `lost`).
    else if (this.client) this.listenTo(this.client, registration.channel).catch(() => undefined);
  }

  async remove(registration: Registration): Promise<void> {
    this.registrations.delete(registration);
    if (this.registrations.size > 0) return;
    clearTimeout(this.reconnect);
    this.reconnect = undefined;
    const last = this.client;
    this.client = undefined;
    await last?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.reconnect = undefined;
    const mine = new pg.Client({ connectionString: this.url });
    this.client = mine;
    this.listened.clear();
    const lost = (error?: unknown) => {
      if (this.client !== mine) return;
      this.client = undefined;
      for (const r of this.registrations) {
        if (error) r.options.onError?.(error);
        if (r.listening) r.options.onListening?.(false);
        r.listening = false;
      }
      mine.end().catch(() => undefined);
      if (this.registrations.size === 0) return;
      this.reconnect = setTimeout(() => void this.connect(), RECONNECT_MS);
      this.reconnect.unref();
    };
    mine.on('error', lost);
    mine.on('end', () => lost());
    mine.on('notification', (n) => {
      for (const r of this.registrations) if (r.channel === n.channel) r.options.onNotification(n.payload ?? '');
    });
    try {
      await mine.connect();
      for (const channel of new Set([...this.registrations].map((r) => r.channel))) await this.listenTo(mine, channel);
    } catch (error) {
      lost(error);
    }
  }

  private async listenTo(client: pg.Client, channel: string): Promise<void> {
    if (!this.listened.has(channel)) {
      this.listened.add(channel);
      await client.query(`LISTEN ${channel}`);
    }
    if (this.client !== client) return;
    for (const r of this.registrations) {
      if (r.channel !== channel || r.listening) continue;
      r.listening = true;
      r.options.onListening?.(true);
    }
  }
}

const connections = new Map<string, SharedConnection>();

/** Listens on `channel` through the process's connection to the server at `url` (see SharedConnection). */
export function listen(url: string, channel: string, options: ListenOptions): Listener {
  let connection = connections.get(url);
  if (!connection) connections.set(url, (connection = new SharedConnection(url)));
  const shared = connection;
  const registration: Registration = { channel, options, listening: false };
  shared.add(registration);
  return {
    get listening() {
      return registration.listening;
    },
    async close() {
      registration.listening = false;
      await shared.remove(registration);
      if (shared.registrations.size === 0 && connections.get(url) === shared) connections.delete(url);
    },
  };
}
