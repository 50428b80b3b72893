import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { AnsweredRequests } from './answered-requests.js';

/** What a command ended as: decided and appended, appended after deciding again on a conflict, refused. */
export type CommandOutcome = 'ok' | 'conflict_retried' | 'rejected' | 'unchanged' | 'replayed' | 'failed';

/** A reading taken at scrape time, never on the request path: null while unknown. */
export type PositionSource = () => bigint | null | Promise<bigint | null>;

/**
 * Every counter and gauge the service exposes on `GET /metrics`, in one registry. Parts receive this
 * object as a parameter and only increment: no part knows about Prometheus or the HTTP route.
 */
export class Metrics {
  readonly registry = new Registry();

  /** Every HTTP answer by method, route pattern and status: counts and latency. */
  readonly answers = new AnsweredRequests(this.registry);
  readonly commands = new Counter({
    name: 'comanda_commands_total', help: 'Commands handled, by aggregate (stream prefix) and outcome',
    labelNames: ['aggregate', 'outcome'] as const, registers: [this.registry],
  });
  readonly conflicts = new Counter({
    name: 'comanda_command_conflicts_total', help: 'Appends refused for a wrong expected revision (each retry counts)',
    labelNames: ['aggregate'] as const, registers: [this.registry],
  });
  readonly appends = new Counter({
    name: 'comanda_event_store_appends_total', help: 'Appends to the event log, by outcome',
    labelNames: ['outcome'] as const, registers: [this.registry],
  });
  readonly appendedEvents = new Counter({
    name: 'comanda_event_store_events_appended_total', help: 'Events written to the event log', registers: [this.registry],
  });
  readonly busPublishFailures = new Counter({
    name: 'comanda_bus_publish_failures_total', help: 'Bus publishes that failed, by subject family',
    labelNames: ['family'] as const, registers: [this.registry],
  });
  readonly busPublished = new Counter({
    name: 'comanda_bus_published_total', help: 'Messages accepted by the bus, by subject family',
    labelNames: ['family'] as const, registers: [this.registry],
  });
  /** The node's webhooks by answer (counted from the HTTP layer): `accepted`, `bad_signature`, `malformed`, `failed`. */
  readonly webhooks = new Counter({
    name: 'comanda_webhooks_total', help: 'Node webhooks received, by outcome',
    labelNames: ['outcome'] as const, registers: [this.registry],
  });
  /** Payments the reconciliation with the node handled: `recorded` (missed until then), `already_recorded`, `failed`. */
  readonly reconciliations = new Counter({
    name: 'comanda_wallet_reconciliations_total', help: 'Payments reconciled with the Lightning node, by outcome',
    labelNames: ['outcome'] as const, registers: [this.registry],
  });
  readonly loginFailures = new Counter({
    name: 'comanda_login_failures_total', help: 'Refused logins (wrong name, PIN or wallet password), by endpoint',
    labelNames: ['endpoint'] as const, registers: [this.registry],
  });
  readonly loginThrottled = new Counter({
    name: 'comanda_login_throttled_total', help: 'Login attempts refused by the lockout (429), by endpoint',
    labelNames: ['endpoint'] as const, registers: [this.registry],
  });
  readonly backups = new Counter({
    name: 'comanda_backups_total', help: 'Scheduled backups of the event log, by outcome',
    labelNames: ['outcome'] as const, registers: [this.registry],
  });

  private head: PositionSource = () => null;
  private countAfter?: (position: bigint | null) => Promise<number>;
  private readonly followers = new Map<string, PositionSource>();

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'comanda_' });
    const self = this;
    new Gauge({
      name: 'comanda_event_store_head_position', help: 'Global position of the last event in the log (-1 when empty)',
      registers: [this.registry],
      async collect() {
        const head = await self.head();
        this.set(head === null ? -1 : Number(head));
      },
    });
    new Gauge({
      name: 'comanda_lag_events', help: 'Events in the log a follower has not processed yet (head − checkpoint), by part',
      labelNames: ['part'] as const, registers: [this.registry],
      async collect() {
        const head = await self.head();
        for (const [part, source] of self.followers) {
          const at = await source();
          this.set({ part }, self.countAfter ? await self.countAfter(at) : Number((head ?? 0n) - (at ?? 0n)));
        }
      },
    });
  }

  /**
   * Where the log's head is read from at scrape time; `countAfter` counts the events after a
   * position where positions are not a count (PostgreSQL's pack transaction ids).
   */
  watchHead(source: PositionSource, countAfter?: (position: bigint | null) => Promise<number>): void {
    this.head = source;
    this.countAfter = countAfter;
  }

  /** A part that follows the log (projector, relay, process managers): its lag is read at scrape time. */
  watchFollower(part: string, position: PositionSource): void {
    this.followers.set(part, position);
  }

  /** Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** `order-3f…` → `order`: labels stay few (one per aggregate), never one per stream. */
export const aggregateOf = (stream: string): string => stream.split('-')[0]!;
