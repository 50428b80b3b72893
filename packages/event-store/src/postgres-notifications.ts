import { randomUUID } from 'node:crypto';
import { type Listener, listen } from '@comanda/postgres';
import type pg from 'pg';
import { CHANNEL, NOTIFY } from './postgres-sql.js';

/**
 * The two ends of `NOTIFY comanda_events` for one store: one LISTEN connection per process wakes
 * its subscriptions, and appends announce themselves after their commit. The payload names the
 * announcing process: its own subscriptions were woken at the commit already, so its own
 * notifications are not read again.
 */
export class Notifications {
  private listener?: Listener;
  private closed = false;
  private notifying: Promise<void> | null = null;
  private notifyAgain = false;
  private readonly self = randomUUID();
  private readonly url: string;
  private readonly pool: pg.Pool;
  private readonly wake: () => void;
  private readonly onError: (error: unknown) => void;

  constructor(
    url: string,
    pool: pg.Pool,
    wake: () => void,
    onError: (error: unknown) => void,
  ) {
    this.url = url;
    this.pool = pool;
    this.wake = wake;
    this.onError = onError;
  }

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
      .query({ name: 'comanda_notify', text: NOTIFY, values: [this.self] })
      .then(() => undefined, this.onError)
      .finally(() => {
        this.notifying = null;
        if (this.notifyAgain) this.announce();
      });
  }

  /** Starts listening (once); it reconnects every second while the server is away. */
  listen(): void {
    if (this.listener || this.closed) return;
    this.listener = listen(this.url, CHANNEL, {
      onNotification: (from) => {
        if (from !== this.self) this.wake();
      },
      // Whatever was appended while no one listened.
      onListening: (on) => on && this.wake(),
      onError: this.onError,
    });
  }

  /** Stops listening and waits for a notification in flight (the pool closes after). */
  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.close();
    await this.notifying;
  }
}
