export interface BusMessage<T = unknown> {
  subject: string;
  payload: T;
  dedupId: string;
  /** True when this message was handed out before and not acknowledged. */
  redelivered: boolean;
}

/** Resolving acknowledges the message; throwing asks for redelivery later. */
export type BusHandler<T = unknown> = (message: BusMessage<T>) => Promise<void> | void;

export interface SubscribeOptions {
  /**
   * A durable consumer keeps its place across restarts and receives every message published since it
   * was first created; without a name a subscription sees only messages published after it started.
   */
  durable?: string;
}

export interface BusSubscription {
  close(): Promise<void>;
}

/**
 * Subjects are dot-separated tokens `pos.<family>.<name>`; patterns use NATS wildcards (`*` one
 * token, `>` the rest). A pattern names one family: `pos.order.>` but not `pos.>`.
 */
export interface Bus {
  /**
   * Whether a published message survives this process crashing (JetStream: stored on disk before the
   * publish is acknowledged). An in-process bus holds messages in memory only: whoever must not lose
   * a message writes it to the event log instead.
   */
  readonly durable: boolean;
  /** Resolves once the message is accepted; a dedupId seen within the window is accepted once only. */
  publish(subject: string, payload: unknown, dedupId: string): Promise<void>;
  subscribe<T = unknown>(pattern: string, handler: BusHandler<T>, options?: SubscribeOptions): Promise<BusSubscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function subjectFamily(subjectOrPattern: string): string {
  const [root, family] = subjectOrPattern.split('.');
  if (root !== 'pos' || !family || family === '*' || family === '>') {
    throw new Error(`Subject ${subjectOrPattern} must start with pos.<family>`);
  }
  return family;
}

export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

export const DEDUP_WINDOW_MS = 2 * 60_000;
