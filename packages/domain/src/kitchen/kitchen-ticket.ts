import type { Decider } from '../decider.js';
import { conflict, notFound } from '../errors.js';
import { versionAfter } from '../versions.js';
import { idFromKey } from '../ids.js';

/**
 * One kitchen ticket (`kitchenticket-<id>`): the lines of one firing of one order for one station.
 * Every kitchen action (start, line done, bump, recall) and every change the order sends after firing
 * (notes, a removed line, a table move) is decided against this stream alone, so two screens tapping
 * the same ticket at once are serialised by its revision, and repeating a tap changes nothing.
 * (Not to be confused with a bill, which the seed also calls a ticket.)
 */
export const kitchenTicketStream = (ticketId: string) => `kitchenticket-${ticketId}`;

/** One ticket per order, firing and station: retrying a firing meets the tickets it opened. */
export const kitchenTicketId = (orderId: string, firingId: string, stationId: string) => idFromKey('kitchenticket', orderId, firingId, stationId);

/** A line's kitchen status; `pending` (not fired) is known only to the order. */
export const KITCHEN_STATUSES = ['pending', 'sent', 'in_progress', 'done', 'cancelled'] as const;
export type KitchenStatus = (typeof KITCHEN_STATUSES)[number];

export interface KitchenLine {
  lineId: string;
  dishId: string;
  dishName: string;
  notes: string;
  status: Exclude<KitchenStatus, 'pending'>;
}

/** Everything a screen shows about a ticket, carried by the event that opens it. */
export interface TicketOpening {
  ticketId: string;
  orderId: string;
  stationId: string;
  tableId: string | null;
  tableName: string | null;
  waiter: string;
  firedAt: number;
  lines: Array<Omit<KitchenLine, 'status'>>;
}

export interface KitchenTicket extends TicketOpening {
  opened: boolean;
  startedAt: number | null;
  bumpedAt: number | null;
  kitchenLines: Record<string, KitchenLine>;
  version: number;
}

/** Every event names its ticket and order, so read models and screens need no other lookup. */
type About = { ticketId: string; orderId: string };

export type KitchenTicketEvent =
  | { type: 'KitchenTicketOpened'; data: TicketOpening }
  | { type: 'KitchenTicketStarted'; data: About & { at: number } }
  | { type: 'KitchenLineDone'; data: About & { lineId: string; at: number } }
  | { type: 'KitchenTicketBumped'; data: About & { at: number; lineIds: string[] } }
  | { type: 'KitchenTicketRecalled'; data: About & { at: number } }
  | { type: 'KitchenLineNotesChanged'; data: About & { lineId: string; notes: string } }
  | { type: 'KitchenLineCancelled'; data: About & { lineId: string } }
  | { type: 'KitchenTicketMoved'; data: About & { tableId: string | null; tableName: string | null } };

export type KitchenTicketCommand =
  | ({ type: 'openTicket' } & TicketOpening)
  | { type: 'startTicket'; at: number }
  | { type: 'markLineDone'; lineId: string; at: number }
  | { type: 'bumpTicket'; at: number }
  | { type: 'recallTicket'; at: number }
  | { type: 'changeLineNotes'; lineId: string; notes: string }
  | { type: 'cancelLine'; lineId: string }
  | { type: 'moveTicket'; tableId: string | null; tableName: string | null };

const finished = (l: KitchenLine) => l.status === 'done' || l.status === 'cancelled';

function opened(state: KitchenTicket): KitchenTicket {
  if (!state.opened) throw notFound();
  return state;
}

function line(state: KitchenTicket, lineId: string): KitchenLine {
  const l = state.kitchenLines[lineId];
  if (!l) throw notFound();
  return l;
}

const mapLines = (state: KitchenTicket, change: (l: KitchenLine) => KitchenLine) =>
  Object.fromEntries(Object.entries(state.kitchenLines).map(([id, l]) => [id, change(l)]));

export const kitchenTicket: Decider<KitchenTicketCommand, KitchenTicketEvent, KitchenTicket> = {
  initialState: () => ({
    ticketId: '', orderId: '', stationId: '', tableId: null, tableName: null, waiter: '', firedAt: 0, lines: [],
    opened: false, startedAt: null, bumpedAt: null, kitchenLines: {}, version: 0,
  }),

  decide(command, state) {
    const about = { ticketId: state.ticketId, orderId: state.orderId };
    switch (command.type) {
      case 'openTicket': {
        // Opened by the firing and again by the process manager after a crash: the second is a no-op.
        if (state.opened) return [];
        const { type: _type, ...opening } = command;
        return [{ type: 'KitchenTicketOpened', data: opening }];
      }
      case 'startTicket': {
        const t = opened(state);
        // A bumped ticket was started by its bump: starting it again changes nothing.
        if (t.startedAt !== null) return [];
        return [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }];
      }
      case 'markLineDone': {
        const t = opened(state);
        const l = line(t, command.lineId);
        if (l.status === 'done') return [];
        if (l.status === 'cancelled') throw conflict('This line was cancelled by the waiter');
        const started: KitchenTicketEvent[] = t.startedAt === null ? [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }] : [];
        return [...started, { type: 'KitchenLineDone', data: { ...about, lineId: l.lineId, at: command.at } }];
      }
      case 'bumpTicket': {
        const t = opened(state);
        if (t.bumpedAt !== null) return [];
        const started: KitchenTicketEvent[] = t.startedAt === null ? [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }] : [];
        const lineIds = Object.values(t.kitchenLines).filter((l) => !finished(l)).map((l) => l.lineId);
        return [...started, { type: 'KitchenTicketBumped', data: { ...about, at: command.at, lineIds } }];
      }
      case 'recallTicket': {
        const t = opened(state);
        if (t.bumpedAt === null) return [];
        return [{ type: 'KitchenTicketRecalled', data: { ...about, at: command.at } }];
      }
      case 'changeLineNotes': {
        const l = line(opened(state), command.lineId);
        if (l.notes === command.notes || l.status === 'cancelled') return [];
        return [{ type: 'KitchenLineNotesChanged', data: { ...about, lineId: l.lineId, notes: command.notes } }];
      }
      case 'cancelLine': {
        const l = line(opened(state), command.lineId);
        // A dish already cooked stays done: the kitchen's work happened.
        if (finished(l)) return [];
        return [{ type: 'KitchenLineCancelled', data: { ...about, lineId: l.lineId } }];
      }
      case 'moveTicket': {
        const t = opened(state);
        if (t.tableId === command.tableId && t.tableName === command.tableName) return [];
        return [{ type: 'KitchenTicketMoved', data: { ...about, tableId: command.tableId, tableName: command.tableName } }];
      }
    }
  },

  evolve(state, event) {
    const version = versionAfter(state);
    switch (event.type) {
      case 'KitchenTicketOpened': {
        const kitchenLines = Object.fromEntries(event.data.lines.map((l) => [l.lineId, { ...l, status: 'sent' as const }]));
        return { ...state, ...event.data, opened: true, kitchenLines, version };
      }
      case 'KitchenTicketStarted':
        return { ...state, startedAt: event.data.at, kitchenLines: mapLines(state, (l) => (l.status === 'sent' ? { ...l, status: 'in_progress' } : l)), version };
      case 'KitchenLineDone': {
        const l = state.kitchenLines[event.data.lineId]!;
        return { ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, status: 'done' } }, version };
      }
      case 'KitchenTicketBumped': {
        const done = new Set(event.data.lineIds);
        return { ...state, bumpedAt: event.data.at, kitchenLines: mapLines(state, (l) => (done.has(l.lineId) ? { ...l, status: 'done' } : l)), version };
      }
      case 'KitchenTicketRecalled':
        return { ...state, bumpedAt: null, version };
      case 'KitchenLineNotesChanged': {
        const l = state.kitchenLines[event.data.lineId]!;
        return { ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, notes: event.data.notes } }, version };
      }
      case 'KitchenLineCancelled': {
        const l = state.kitchenLines[event.data.lineId]!;
        return { ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, status: 'cancelled' } }, version };
      }
      case 'KitchenTicketMoved':
        return { ...state, tableId: event.data.tableId, tableName: event.data.tableName, version };
    }
  },
};

/** True when every line of the ticket is done or cancelled. */
export const ticketFinished = (t: KitchenTicket): boolean => Object.values(t.kitchenLines).every(finished);
