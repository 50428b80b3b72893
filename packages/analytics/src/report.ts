import type { ReplayedEvent } from '@comanda/event-store';
import type { LocalClock } from './clock.js';
import type { FoldParts } from './order-book.js';

/** One cell of a report's table: JSON, CSV and the terminal all print these. */
export type Cell = string | number | null;
export type Row = Record<string, Cell>;

/** Days (YYYY-MM-DD, inclusive) in the restaurant's time zone; either end may be open. */
export interface DayRange { from?: string; to?: string }

/** A chart the HTML page draws from one section. */
export interface ChartSpec { section: string; kind: 'bar' | 'line' | 'pie'; label: string; values: string[]; title: string }

/**
 * A report is a projection of the log: a pure fold into compact in-memory state (`apply` mutates the
 * state it was given, for speed) and a query over that state for a range of days. Its `version`
 * changes whenever what it computes changes: a new version is rebuilt from position 0 beside the old.
 */
export interface ReportDefinition<State = unknown> {
  name: string;
  version: number;
  title: string;
  /** Event types it reads; it is never called for others. */
  handles: readonly string[];
  /** A fresh state; `parts` gives what reports folded together share (the order book). */
  init(clock: LocalClock, parts: FoldParts): State;
  apply(state: State, event: ReplayedEvent): void;
  /** Sections of rows, each sorted deterministically. */
  query(state: State, range: DayRange): Record<string, Row[]>;
  charts: ChartSpec[];
}

/** What every output format prints. */
export interface ReportResult {
  report: string;
  version: number;
  title: string;
  time_zone: string;
  from: string | null;
  to: string | null;
  /** The log position the report includes (as text: positions may exceed 2^53). */
  position: string | null;
  sections: Record<string, Row[]>;
}

export const inRange = (day: string, range: DayRange): boolean =>
  (range.from === undefined || day >= range.from) && (range.to === undefined || day <= range.to);

/** Cents to the base currency's decimal amount. */
export const money = (cents: number): number => Math.round(cents) / 100;
export const round2 = (x: number): number => Math.round(x * 100) / 100;
export const ratio = (a: number, b: number): number => (b === 0 ? 0 : round2(a / b));
/** Average of cents as money, rounded to the cent. */
export const averageMoney = (cents: number, count: number): number => (count === 0 ? 0 : money(Math.round(cents / count)));

/** When something happened: the domain's own time when the event carries one, else when it was written. */
export function eventTime(event: ReplayedEvent, at?: unknown): number {
  if (typeof at === 'number') return at;
  const occurred = event.metadata.occurredAt;
  return typeof occurred === 'number' ? occurred : event.recordedAt;
}

/** A stream's id: `order-<id>` → `<id>`. */
export const streamId = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

/** Days of a map in range, sorted. */
export function daysIn<T>(days: Map<string, T>, range: DayRange): Array<[string, T]> {
  return [...days].filter(([day]) => inRange(day, range)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Code point order: the same on every machine and locale (localeCompare is not). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function bucket<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
