import type { Position, ReplayedEvent } from '@comanda/event-store';
import { LocalClock } from './clock.js';
import { type FoldParts, ownParts, sharedParts } from './order-book.js';
import type { DayRange, ReportDefinition, ReportResult } from './report.js';

/** One report's state as it stands, at the position of the last event it has seen. */
export class RunningReport<S = unknown> {
  readonly state: S;
  position: Position | null = null;
  readonly definition: ReportDefinition<S>;
  readonly clock: LocalClock;
  constructor(definition: ReportDefinition<S>, clock: LocalClock, parts: FoldParts = ownParts) {
    this.definition = definition;
    this.clock = clock;
    this.state = definition.init(clock, parts);
  }

  result(range: DayRange): ReportResult {
    const d = this.definition;
    return {
      report: d.name, version: d.version, title: d.title, time_zone: this.clock.timeZone,
      from: range.from ?? null, to: range.to ?? null, position: this.position === null ? null : this.position.toString(),
      sections: d.query(this.state, range),
    };
  }
}

/**
 * Folds events into several reports at once: events are routed by type to the reports that read
 * them (an event no report reads costs one map lookup). Pure and in memory: the replay's speed.
 */
export class ReportFold {
  private readonly byType = new Map<string, RunningReport[]>();
  readonly reports: RunningReport[];
  position: Position | null = null;
  events = 0;

  constructor(definitions: ReadonlyArray<ReportDefinition<unknown>>, timeZone: string) {
    const clock = new LocalClock(timeZone);
    // Its reports move in lock step, so they can share one order book.
    const parts = sharedParts();
    this.reports = definitions.map((d) => new RunningReport(d, clock, parts));
    for (const r of this.reports) {
      for (const type of r.definition.handles) {
        let list = this.byType.get(type);
        if (!list) this.byType.set(type, (list = []));
        list.push(r);
      }
    }
  }

  apply(events: readonly ReplayedEvent[]): void {
    for (const event of events) {
      const reports = this.byType.get(event.type);
      if (reports !== undefined) for (const r of reports) r.definition.apply(r.state, event);
    }
    if (events.length > 0) {
      const last = events[events.length - 1]!.position;
      this.position = last;
      for (const r of this.reports) r.position = last;
      this.events += events.length;
    }
  }

  report(name: string): RunningReport | undefined {
    return this.reports.find((r) => r.definition.name === name);
  }
}
