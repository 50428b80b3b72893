/** Global position in the log: strictly increasing in read order, comparable across streams; not a count (gaps allowed). */
export type Position = bigint;

/** `no_stream`: the stream must not exist; a number: the revision of its last event; `any`: no check. */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface NewEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

export interface RecordedEvent<Data = unknown> {
  id: string;
  stream: string;
  /** 0-based index of the event in its stream. */
  revision: number;
  position: Position;
  type: string;
  data: Data;
  metadata: Record<string, unknown>;
  recordedAt: number;
}

/**
 * An event as a replay reads it for folds that never look at an event's id or revision (the owner's
 * reports): what a RecordedEvent has but those two. A RecordedEvent is one.
 */
export type ReplayedEvent<Data = unknown> = Omit<RecordedEvent<Data>, 'id' | 'revision'>;

export interface AppendResult {
  /** Revision of the last appended event: the expected revision of the next append. */
  nextRevision: number;
  /** Position of the last appended event. */
  position: Position;
}

export interface SubscriptionHandlers {
  /** Receives events in log order, in batches; the next batch waits for the returned promise. */
  onEvents(events: RecordedEvent[]): Promise<void> | void;
  /** Called once when the subscription stops because of an error (handler or store). */
  onError?(error: unknown): void;
  /**
   * Optional: how late this subscriber may run behind the log. A networked log (PostgreSQL) then
   * reads for it at most once per `settleMs` after a wake, the appends of that time in one page,
   * rather than once per append (the owner's reports on every API replica). Embedded logs ignore it.
   */
  settleMs?: number;
}

export interface Subscription {
  close(): Promise<void>;
}

/** A stream's folded state at a revision, tagged with the decider's snapshot schema (`name@version`). */
export interface StoredSnapshot {
  revision: number;
  schema: string;
  /** JSON text of what the command handler keeps: state and recent idempotency keys. */
  body: string;
}

export interface EventStore {
  /** Optional: stores that can keep snapshots beside the log (SQLite, PostgreSQL, memory). */
  readSnapshot?(stream: string): Promise<StoredSnapshot | null>;
  writeSnapshot?(stream: string, snapshot: StoredSnapshot): Promise<void>;
  append(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** All events of a stream from `fromRevision` (inclusive), oldest first; [] for an unknown stream. */
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /**
   * Optional: true when the store knows without a query that `stream` has no event after `revision`
   * (it is the log's only writer and has read or written the stream lately); false when it cannot tell.
   */
  knownToEndAt?(stream: string, revision: number): boolean;
  /**
   * True when one command handler makes every append to this log (SQLite: one process owns the file).
   * Only then may the handler pipeline the commands queued on a stream: a failed append ahead can leave
   * no room for another writer's event, so the append decided on it fails too (see CommandHandler.handle).
   */
  readonly soleWriter?: boolean;
  /** Catch-up from `after` (exclusive; null = from the start), then live. System events excluded. */
  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription;
  /** Position of the last event in the log, null when empty. */
  headPosition(): Promise<Position | null>;
  /**
   * Optional: how many events follow `position` (a follower's lag), for stores whose positions are
   * not a count of events (PostgreSQL packs transaction ids); the others' lag is head − position.
   */
  countAfter?(position: Position | null): Promise<number>;
  /** Liveness for /health. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The one concurrency error every adapter surfaces: the stream moved on since it was read. */
export class WrongExpectedRevision extends Error {
  readonly stream: string;
  readonly expected: ExpectedRevision;
  readonly actual: number | 'no_stream';
  constructor(
    stream: string,
    expected: ExpectedRevision,
    actual: number | 'no_stream',
  ) {
    super(`Stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
    this.name = 'WrongExpectedRevision';
  }
}

export function revisionMatches(expected: ExpectedRevision, current: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === -1;
  return expected === current;
}
