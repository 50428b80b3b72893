import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import type { FloorEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, eventTime, round2 } from '../report.js';

interface Turns { turns: number; ms: number }
interface TablesState {
  clock: LocalClock;
  spaces: Map<string, string>;
  tables: Map<string, { name: string; spaceId: string }>;
  /** Seated tables: when guests sat down. */
  seated: Map<string, number>;
  /** day (of seating) → table → turns. */
  days: Map<string, Map<string, Turns>>;
}

const minutes = (ms: number) => round2(ms / 60_000);

/**
 * Table turns: a turn runs from a table being occupied to it being freed (released, or set available
 * by hand), dated on the day guests sat down. Floor events carry no time of their own: the time they
 * were written is when it happened.
 */
const TABLE_EVENTS = ['SpaceCreated', 'SpaceRenamed', 'TableAdded', 'TableUpdated', 'TableOccupied', 'TableReleased', 'TableMadeAvailable', 'TableRemoved'] as const;

export const tablesReport: ReportDefinition<TablesState> = {
  name: 'tables',
  version: 1,
  title: 'Table turns',
  handles: TABLE_EVENTS,
  init: (clock) => ({ clock, spaces: new Map(), tables: new Map(), seated: new Map(), days: new Map() }),
  apply(s, event: ReplayedEvent) {
    if (!isOneOf<FloorEvent>(event, TABLE_EVENTS)) return;
    const e = event;
    switch (e.type) {
      case 'SpaceCreated':
      case 'SpaceRenamed':
        s.spaces.set(e.data.spaceId, e.data.name);
        return;
      case 'TableAdded':
      case 'TableUpdated':
        s.tables.set(e.data.tableId, { name: e.data.name, spaceId: e.data.spaceId });
        if (e.type === 'TableAdded' && e.data.status === 'occupied') s.seated.set(e.data.tableId, eventTime(event));
        return;
      case 'TableOccupied':
        if (!s.seated.has(e.data.tableId)) s.seated.set(e.data.tableId, eventTime(event));
        return;
      case 'TableReleased':
      case 'TableMadeAvailable':
      case 'TableRemoved': {
        const since = s.seated.get(e.data.tableId);
        if (since === undefined) return;
        s.seated.delete(e.data.tableId);
        if (e.type === 'TableRemoved') return;
        const t = bucket(bucket(s.days, s.clock.day(since), () => new Map<string, Turns>()), e.data.tableId, () => ({ turns: 0, ms: 0 }));
        t.turns++;
        t.ms += Math.max(0, eventTime(event) - since);
        return;
      }
      default:
        return;
    }
  },
  query(s, range) {
    const tables = new Map<string, Turns>();
    for (const [, day] of daysIn(s.days, range)) {
      for (const [id, d] of day) {
        const t = bucket(tables, id, () => ({ turns: 0, ms: 0 }));
        t.turns += d.turns;
        t.ms += d.ms;
      }
    }
    const spaces = new Map<string, Turns & { tables: number }>();
    const tableRows = [...tables].map(([id, t]) => {
      const table = s.tables.get(id);
      const spaceId = table?.spaceId ?? '';
      const space = bucket(spaces, spaceId, () => ({ turns: 0, ms: 0, tables: 0 }));
      space.turns += t.turns;
      space.ms += t.ms;
      space.tables++;
      return { table_id: id, table: table?.name ?? id, space: s.spaces.get(spaceId) ?? (spaceId || null), turns: t.turns, average_minutes: minutes(t.turns ? t.ms / t.turns : 0), total_minutes: minutes(t.ms) };
    });
    tableRows.sort((a, b) => compareText(String(a.space), String(b.space)) || compareText(a.table, b.table) || compareText(a.table_id, b.table_id));
    const spaceRows: Row[] = [...spaces]
      .map(([id, t]) => ({ space_id: id || null, space: s.spaces.get(id) ?? (id || '(unknown)'), tables: t.tables, turns: t.turns, turns_per_table: round2(t.turns / t.tables), average_minutes: minutes(t.turns ? t.ms / t.turns : 0) }))
      .sort((a, b) => compareText(a.space, b.space) || compareText(String(a.space_id), String(b.space_id)));
    return { by_table: tableRows, by_space: spaceRows };
  },
  charts: [
    { section: 'by_table', kind: 'bar', label: 'table', values: ['turns'], title: 'Turns by table' },
    { section: 'by_space', kind: 'bar', label: 'space', values: ['average_minutes'], title: 'Average minutes seated, by space' },
  ],
};
