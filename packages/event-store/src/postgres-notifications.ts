import pg from 'pg';
import { CHANNEL, NOTIFY } from './postgres-sql.js';

/**
 * The two ends of `NOTIFY comanda_events` for one store: one LISTEN connection per process wakes
 * its subscriptions (and reconnects), and appends announce themselves after their commit.
 */
export class Notifications {
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  private reconnect?: NodeJS.Timeout;
  private notifying: Promise<void> | null = null;
  private notifyAgain = false;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly wake: () => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * After a commit. One NOTIFY in flight per process: appends committing meanwhile are covered by
   * one more once it returns, so notifications cost a round trip per burst, never a serialised
   * commit per append (see NOTIFY in postgres-sql.ts).
   */
  announce(): void {
    if (this.closed) return;
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifyAgain = false;
    this.notifying = this.pool
      .query(NOTIFY)
      .then(() => undefined, this.onError)
      .finally(() => {
        this.notifying = null;
        if (this.notifyAgain) this.announce();
      });
  }

  /** Starts listening (once); it reconnects every second while the server is away. */
  async listen(): Promise<void> {
    if (this.listening || this.closed) return;
    this.listening = true;
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    const retry = (error?: unknown) => {
      if (error) this.onError(error);
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.reconnect = setTimeout(() => void this.listen(), 1000);
      this.reconnect.unref();
    };
    client.on('error', retry);
    client.on('end', () => retry());
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Whatever was appended while no one listened.
      this.wake();
    } catch (error) {
      retry(error);
    }
  }

  /** Stops listening and waits for a notification in flight (the pool closes after). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.notifying;
  }
}
