import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import type { KitchenTicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { MENU_NAME_EVENTS, MenuNames } from '../menu-names.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, streamId } from '../report.js';

/** A ticket is late past this many minutes from firing to done: the kitchen display's "late" colour. */
export const LATE_AFTER_MINUTES = 20;

interface OpenTicket { stationId: string; firedAt: number; day: string; lines: Map<string, string>; remaining: number; lastDone: number; anyDone: boolean }
interface KitchenDay {
  /** station → seconds from fired to done of each ticket. */
  stations: Map<string, number[]>;
  /** dish → seconds from fired to done of each line. */
  dishes: Map<string, number[]>;
  late: Map<string, number>;
}
interface KitchenState { clock: LocalClock; menu: MenuNames; dishNames: Map<string, string>; open: Map<string, OpenTicket>; days: Map<string, KitchenDay> }

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function append(to: number[], from: readonly number[]): void {
  for (const x of from) to.push(x);
}

/** The kitchen's events it times (the menu's names it also reads are MenuNames'). */
const KITCHEN_EVENTS = ['KitchenTicketOpened', 'KitchenLineDone', 'KitchenTicketBumped', 'KitchenLineCancelled'] as const;

const newDay = (): KitchenDay => ({ stations: new Map(), dishes: new Map(), late: new Map() });

/**
 * Kitchen times: from a ticket's firing to its last line done (a line tapped done, or the bump), per
 * station (tickets) and per dish (lines), p50 and p90 in seconds (nearest rank over the durations),
 * and late tickets (over LATE_AFTER_MINUTES). Cancelled lines are not timed; a ticket whose lines were
 * all cancelled is not counted. Dated on the day the ticket was fired.
 */
export const kitchenReport: ReportDefinition<KitchenState> = {
  name: 'kitchen',
  version: 1,
  title: 'Kitchen times',
  handles: [...MENU_NAME_EVENTS, ...KITCHEN_EVENTS],
  init: (clock) => ({ clock, menu: new MenuNames(), dishNames: new Map(), open: new Map(), days: new Map() }),
  apply(s, event: ReplayedEvent) {
    if (!isOneOf<KitchenTicketEvent>(event, KITCHEN_EVENTS)) {
      s.menu.apply(event);
      return;
    }
    const e = event;
    const done = (t: OpenTicket, lineId: string, at: number) => {
      const dishId = t.lines.get(lineId);
      if (dishId === undefined) return;
      t.lines.delete(lineId);
      t.remaining--;
      t.anyDone = true;
      t.lastDone = Math.max(t.lastDone, at);
      const day = bucket(s.days, t.day, newDay);
      bucket(day.dishes, dishId, () => []).push(Math.round((at - t.firedAt) / 1000));
    };
    const settle = (id: string, t: OpenTicket) => {
      if (t.remaining > 0) return;
      s.open.delete(id);
      if (!t.anyDone) return;
      const day = bucket(s.days, t.day, newDay);
      const seconds = Math.round((t.lastDone - t.firedAt) / 1000);
      bucket(day.stations, t.stationId, () => []).push(seconds);
      if (seconds > LATE_AFTER_MINUTES * 60) day.late.set(t.stationId, (day.late.get(t.stationId) ?? 0) + 1);
    };
    switch (e.type) {
      case 'KitchenTicketOpened': {
        const lines = new Map<string, string>();
        for (const l of e.data.lines) {
          lines.set(l.lineId, l.dishId);
          s.dishNames.set(l.dishId, l.dishName);
        }
        s.open.set(streamId(event.stream), { stationId: e.data.stationId, firedAt: e.data.firedAt, day: s.clock.day(e.data.firedAt), lines, remaining: lines.size, lastDone: 0, anyDone: false });
        return;
      }
      case 'KitchenLineDone': {
        const id = streamId(event.stream);
        const t = s.open.get(id);
        if (!t) return;
        done(t, e.data.lineId, e.data.at);
        settle(id, t);
        return;
      }
      case 'KitchenTicketBumped': {
        const id = streamId(event.stream);
        const t = s.open.get(id);
        if (!t) return;
        for (const lineId of e.data.lineIds) done(t, lineId, e.data.at);
        settle(id, t);
        return;
      }
      case 'KitchenLineCancelled': {
        const id = streamId(event.stream);
        const t = s.open.get(id);
        if (!t || !t.lines.delete(e.data.lineId)) return;
        t.remaining--;
        settle(id, t);
        return;
      }
      default:
    }
  },
  query(s, range) {
    const stations = new Map<string, number[]>();
    const dishes = new Map<string, number[]>();
    const late = new Map<string, number>();
    const byDay: Row[] = [];
    for (const [day, d] of daysIn(s.days, range)) {
      let tickets = 0;
      let lateToday = 0;
      const all: number[] = [];
      for (const [id, secs] of d.stations) {
        append(bucket(stations, id, () => []), secs);
        tickets += secs.length;
        append(all, secs);
      }
      for (const [id, secs] of d.dishes) append(bucket(dishes, id, () => []), secs);
      for (const [id, n] of d.late) {
        late.set(id, (late.get(id) ?? 0) + n);
        lateToday += n;
      }
      all.sort((a, b) => a - b);
      byDay.push({ day, tickets, p50_seconds: percentile(all, 50), p90_seconds: percentile(all, 90), late: lateToday });
    }
    const rows = (map: Map<string, number[]>, name: (id: string) => string) =>
      [...map].map(([id, secs]) => {
        secs.sort((a, b) => a - b);
        return { id, name: name(id), secs };
      }).sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id));
    return {
      by_station: rows(stations, (id) => s.menu.stations.get(id) ?? id).map(({ id, name, secs }) => ({
        station_id: id, station: name, tickets: secs.length, p50_seconds: percentile(secs, 50), p90_seconds: percentile(secs, 90), late: late.get(id) ?? 0,
      })),
      by_dish: rows(dishes, (id) => s.menu.dishes.get(id)?.name ?? s.dishNames.get(id) ?? id).map(({ id, name, secs }) => ({
        dish_id: id, dish: name, lines: secs.length, p50_seconds: percentile(secs, 50), p90_seconds: percentile(secs, 90),
      })),
      by_day: byDay,
    };
  },
  charts: [
    { section: 'by_station', kind: 'bar', label: 'station', values: ['p50_seconds', 'p90_seconds'], title: 'Fired to done by station (s)' },
    { section: 'by_day', kind: 'line', label: 'day', values: ['p50_seconds', 'p90_seconds'], title: 'Fired to done by day (s)' },
  ],
};
