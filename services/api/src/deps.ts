import type { LiveReports } from '@comanda/analytics';
import type { AttemptCounter } from '@comanda/attempts';
import type { Bus } from '@comanda/bus';
import type { Config } from '@comanda/config';
import type { NodeClient } from '@comanda/lightning';
import type { CommandHandler, EventStore, Position } from '@comanda/event-store';
import type { Metrics } from '@comanda/metrics';
import type { ReadStore } from '@comanda/read-store';
import type { ExchangeRates } from '@comanda/rates';
import type { HealthCheck as RuntimeHealthCheck } from '@comanda/runtime';

/** Read-your-writes: resolves once the read models include a position (false on timeout). */
export interface ConsistencyGate {
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/** One part's state for /health (the runtime's type: every process reports the same way). */
export type HealthCheck = RuntimeHealthCheck;

/** Everything the HTTP layer needs from the outside, passed in so tests can assemble it freely. */
export interface AppDeps {
  config: Config;
  store: EventStore;
  readStore: ReadStore;
  /** The login and wallet-password throttles' counters (shared by every replica where the read models are). */
  attempts: AttemptCounter;
  bus: Bus;
  commands: CommandHandler;
  gate: ConsistencyGate;
  /** Where the projector runs elsewhere: its checkpoint as announced or read (revalidation's tags). */
  checkpoints?: { position(name: string): Promise<Position | null> };
  health: HealthCheck[];
  /** Application master key: PIN salts and token signing keys derive from it. */
  masterKey: string;
  /** The restaurant's Lightning node; absent → the wallet endpoints answer 503. */
  node?: NodeClient;
  /** Counters for GET /metrics; absent → the app keeps its own (HTTP figures only). */
  metrics?: Metrics;
  /** Exchange rates for Lightning checkout; absent → the configured source (COMANDA_RATE_SOURCE). */
  rates?: ExchangeRates;
  /** The owner's reports kept live (GET /reports/{name}); absent → those routes answer 503. */
  reports?: Pick<LiveReports, 'get' | 'state' | 'isRebuilding'>;
  /** The clock (ms); tests move it to expire tokens and lockouts. */
  now?: () => number;
}
