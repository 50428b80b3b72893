import type { EventStore, Position, RecordedEvent, Subscription } from '@comanda/event-store';
import { restoreReports, saveReports } from './checkpoint.js';
import { LocalClock } from './clock.js';
import { RunningReport } from './fold.js';
import type { ReportDefinition } from './report.js';

export type LiveState = 'starting' | 'live' | 'failed' | 'stopped';

/**
 * How far behind the log the reports may run on a networked log: an owner's report a quarter of a
 * second late is the same report, and every API replica following PostgreSQL once per append cost
 * each replica ~8 % of a write's CPU (docs/benchmarks.md). Embedded logs are read at once anyway.
 */
const SETTLE_MS = 250;

interface Logger { info(obj: object, msg: string): void; error(obj: object, msg: string): void }

export interface ReportsCheckpointOptions {
  /** The file the states are saved to and restored from (the standalone's data dir). */
  file: string;
  /** How often a live service saves them when the log has moved (they are also saved once caught up, and at stop). */
  everyMs: number;
}

/**
 * The reports kept current for `GET /reports/{name}`: the same folds as the command line, following
 * the log from position 0 and then live. A new or changed report (`install`) is rebuilt from position 0
 * beside the one serving, on its own catch-up subscription, and swapped in once it has reached the
 * position the serving reports are at; from then on it follows with them.
 */
export class LiveReports {
  private readonly clock: LocalClock;
  private readonly current = new Map<string, RunningReport>();
  private readonly byType = new Map<string, RunningReport[]>();
  private subscription?: Subscription;
  /** The subscriptions `install` is building reports on, and the report each builds. */
  private readonly rebuilding = new Map<Subscription, string>();
  private processed: Position | null = null;
  private saved: Position | null = null;
  private saving?: ReturnType<typeof setInterval>;
  private saveQueue: Promise<void> = Promise.resolve();
  state: LiveState = 'starting';
  failure?: unknown;
  private readonly store: EventStore;
  private readonly logger?: Logger;
  private readonly checkpoint?: ReportsCheckpointOptions;

  constructor(
    store: EventStore,
    definitions: ReadonlyArray<ReportDefinition<unknown>>,
    timeZone: string,
    logger?: Logger,
    checkpoint?: ReportsCheckpointOptions,
  ) {
    this.store = store;
    this.logger = logger;
    this.checkpoint = checkpoint;
    this.clock = new LocalClock(timeZone);
    for (const d of definitions) this.current.set(d.name, new RunningReport(d, this.clock));
    this.route();
  }

  /** Resolves once every report includes the events that were in the log at start. */
  async start(): Promise<void> {
    // Restored here, not when built: the part starts the reports once the process listens, so
    // reading the checkpoint never delays readiness.
    if (this.checkpoint) {
      const restored = restoreReports(this.checkpoint.file, this.clock, [...this.current.values()].map((r) => r.definition));
      for (const r of restored) this.current.set(r.definition.name, r);
      if (restored.length) this.logger?.info({ reports: restored.map((r) => r.definition.name), file: this.checkpoint.file }, 'reports restored from their checkpoint');
    }
    const head = await this.store.headPosition();
    // A checkpoint beyond the log's head was made from another log (an older backup put back by
    // hand): those reports are folded again from position 0.
    for (const r of [...this.current.values()]) {
      if (r.position !== null && (head === null || r.position > head)) {
        this.logger?.info({ report: r.definition.name, position: r.position.toString(), head: head?.toString() ?? null }, 'report checkpoint beyond the log: folded again');
        this.current.set(r.definition.name, new RunningReport(r.definition, this.clock));
      }
    }
    // A report the checkpoint does not hold (new, or its version changed) while others were restored:
    // those serve as soon as they have caught up from their own positions, and it is rebuilt from
    // position 0 beside them (`install`), answering "being rebuilt" until it is swapped in. Its old
    // version cannot serve meanwhile: its code left with the build that computed it.
    const behind = [...this.current.values()].some((r) => r.position !== null) ? [...this.current.values()].filter((r) => r.position === null) : [];
    for (const r of behind) this.current.delete(r.definition.name);
    this.route();
    // From the report that has folded least: a report restored further on skips what it has seen.
    const positions = [...this.current.values()].map((r) => r.position);
    const from = positions.includes(null) ? null : positions.reduce((a, b) => (b! < a! ? b : a));
    this.processed = this.saved = from;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.state === 'starting' && (head === null || (this.processed !== null && this.processed >= head))) {
          this.state = 'live';
          this.logger?.info({ position: this.processed?.toString() ?? null }, 'reports caught up');
          this.startSaving();
          for (const r of behind) {
            this.install(r.definition).catch((error: unknown) => this.logger?.error({ err: error, report: r.definition.name }, 'report not rebuilt'));
          }
          resolve();
        }
      };
      this.subscription = this.store.subscribeToAll(from, {
        settleMs: SETTLE_MS,
        onEvents: (events) => {
          this.apply(events);
          check();
        },
        onError: (error) => {
          this.fail(error);
          reject(error);
        },
      });
      check();
    });
  }

  /** The report serving `name`, or undefined for a name no report has. */
  get(name: string): RunningReport | undefined {
    return this.current.get(name);
  }

  names(): string[] {
    return [...this.current.keys()];
  }

  /** Whether a report of this name is being built from position 0 with none serving it meanwhile. */
  isRebuilding(name: string): boolean {
    return !this.current.has(name) && [...this.rebuilding.values()].includes(name);
  }

  position(): Position | null {
    return this.processed;
  }

  /**
   * Builds `definition` from position 0 beside the report serving its name (which keeps answering),
   * and swaps it in once it has caught up. Resolves at the swap.
   */
  install(definition: ReportDefinition<unknown>): Promise<void> {
    const candidate = new RunningReport(definition, this.clock);
    return new Promise<void>((resolve, reject) => {
      let swapped = false;
      const subscription: Subscription = this.store.subscribeToAll(null, {
        settleMs: SETTLE_MS,
        onEvents: (events) => {
          if (swapped) return;
          applyTo(candidate, events);
          if (this.processed !== null && candidate.position !== null && candidate.position >= this.processed) {
            swapped = true;
            this.current.set(definition.name, candidate);
            this.route();
            this.rebuilding.delete(subscription);
            // The checkpoint holds the old version (or none): the next save writes it even if the log is still.
            this.saved = null;
            this.logger?.info({ report: definition.name, version: definition.version, position: candidate.position.toString() }, 'report rebuilt and swapped in');
            void subscription.close();
            resolve();
          }
        },
        onError: (error) => {
          this.rebuilding.delete(subscription);
          reject(error);
        },
      });
      this.rebuilding.set(subscription, definition.name);
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.saving);
    const failed = this.state === 'failed';
    if (!failed) this.state = 'stopped';
    await this.subscription?.close();
    await Promise.all([...this.rebuilding.keys()].map((s) => s.close()));
    // A fold stopped half way is a consistent checkpoint too: every report is at its own position.
    if (!failed) await this.save();
    else await this.saveQueue;
  }

  /** Saved once caught up (a first start's whole fold is kept), then every `everyMs` the log moved. */
  private startSaving(): void {
    if (!this.checkpoint) return;
    void this.save();
    this.saving = setInterval(() => void this.save(), this.checkpoint.everyMs);
    this.saving.unref();
  }

  /** One save at a time: a save asked for while one runs follows it. */
  private save(): Promise<void> {
    this.saveQueue = this.saveQueue.then(() => this.saveNow());
    return this.saveQueue;
  }

  private async saveNow(): Promise<void> {
    const position = this.processed;
    if (!this.checkpoint || position === null || position === this.saved) return;
    const started = performance.now();
    try {
      const bytes = await saveReports(this.checkpoint.file, this.clock, this.current.values());
      this.saved = position;
      this.logger?.info({ position: position.toString(), bytes, ms: Math.round(performance.now() - started) }, 'reports checkpoint saved');
    } catch (error) {
      // Only a slower next start is at stake: the log rebuilds the reports.
      this.logger?.error({ err: error, file: this.checkpoint.file }, 'reports checkpoint not saved');
    }
  }

  private route(): void {
    this.byType.clear();
    for (const r of this.current.values()) {
      for (const type of r.definition.handles) {
        let list = this.byType.get(type);
        if (!list) this.byType.set(type, (list = []));
        list.push(r);
      }
    }
  }

  private apply(events: RecordedEvent[]): void {
    if (events.length === 0) return;
    const last = events[events.length - 1]!.position;
    try {
      for (const event of events) {
        const reports = this.byType.get(event.type);
        if (reports === undefined) continue;
        for (const r of reports) {
          // A report swapped in may already have read further than the serving ones.
          if (r.position !== null && event.position <= r.position) continue;
          r.definition.apply(r.state, event);
        }
      }
    } catch (error) {
      this.fail(error);
      throw error;
    }
    for (const r of this.current.values()) if (r.position === null || r.position < last) r.position = last;
    this.processed = last;
  }

  private fail(error: unknown): void {
    this.state = 'failed';
    this.failure = error;
    this.logger?.error({ err: error }, 'reports stopped: a report failed');
  }
}

function applyTo(report: RunningReport, events: readonly RecordedEvent[]): void {
  for (const event of events) {
    if (report.definition.handles.includes(event.type)) report.definition.apply(report.state, event);
  }
  report.position = events[events.length - 1]!.position;
}
