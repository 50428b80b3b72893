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

export interface KitchenLine extends LineForCooks {
  lineId: string;
  dishId: string;
  dishName: string;
  notes: string;
  status: Exclude<KitchenStatus, 'pending'>;
}

/**
 * What a cook needs besides the dish: how many, which course and seat, the modifiers chosen (their
 * names) and the dish's allergens. Absent on tickets opened before they existed (one portion, course
 * 1, no seat, nothing else).
 */
export interface LineForCooks {
  quantity?: number;
  course?: number;
  seat?: number | null;
  modifiers?: string[];
  allergens?: string[];
}

/** Everything a screen shows about a ticket, carried by the event that opens it. */
export interface TicketOpening {
  ticketId: string;
  orderId: string;
  stationId: string;
  tableId: string | null;
  tableName: string | null;
  waiter: string;
  /** The order's number of its business day (absent for orders placed before numbers). */
  orderNumber?: number;
  firedAt: number;
  lines: Array<Omit<KitchenLine, 'status'>>;
}

/** Why a ticket left the board without a bump: its order finished. */
export const TICKET_CLOSE_REASONS = ['order_completed', 'order_cancelled', 'order_deleted'] as const;
export type TicketCloseReason = (typeof TICKET_CLOSE_REASONS)[number];

export interface KitchenTicket extends TicketOpening {
  opened: boolean;
  startedAt: number | null;
  bumpedAt: number | null;
  /** Closed for good (its order finished): no cook acts on it any more. */
  closedAt: number | null;
  closedReason: TicketCloseReason | null;
  /** Since when every line has been done or cancelled (or since its recall, if so): the auto-bump waits from here. */
  readySince: number | null;
  kitchenLines: Record<string, KitchenLine>;
  version: number;
}

/** Every event names its ticket and order, so read models and screens need no other lookup. */
type About = { ticketId: string; orderId: string };

export type KitchenTicketEvent =
  | { type: 'KitchenTicketOpened'; data: TicketOpening }
  | { type: 'KitchenTicketStarted'; data: About & { at: number } }
  | { type: 'KitchenLineDone'; data: About & { lineId: string; at: number } }
  /** `auto`: bumped by the process manager after every line stayed done for the configured time. */
  | { type: 'KitchenTicketBumped'; data: About & { at: number; lineIds: string[]; auto?: true } }
  | { type: 'KitchenTicketRecalled'; data: About & { at: number } }
  | { type: 'KitchenLineNotesChanged'; data: About & { lineId: string; notes: string } }
  /** `at` is absent on events written before it was recorded. */
  | { type: 'KitchenLineCancelled'; data: About & { lineId: string; at?: number } }
  | { type: 'KitchenTicketMoved'; data: About & { tableId: string | null; tableName: string | null } }
  | { type: 'KitchenTicketClosed'; data: About & { at: number; reason: TicketCloseReason } };

export type KitchenTicketCommand =
  | ({ type: 'openTicket' } & TicketOpening)
  | { type: 'startTicket'; at: number }
  | { type: 'markLineDone'; lineId: string; at: number }
  | { type: 'bumpTicket'; at: number; auto?: boolean }
  | { type: 'recallTicket'; at: number }
  | { type: 'changeLineNotes'; lineId: string; notes: string }
  | { type: 'cancelLine'; lineId: string; at?: number }
  | { type: 'moveTicket'; tableId: string | null; tableName: string | null }
  | { type: 'closeTicket'; reason: TicketCloseReason; at: number };

const finished = (l: KitchenLine) => l.status === 'done' || l.status === 'cancelled';

function opened(state: KitchenTicket): KitchenTicket {
  if (!state.opened) throw notFound();
  return state;
}

/** Open and not closed: what a cook's tap needs. */
function onBoard(state: KitchenTicket): KitchenTicket {
  const t = opened(state);
  if (t.closedAt !== null) throw conflict('This ticket was closed: its order is finished');
  return t;
}

function line(state: KitchenTicket, lineId: string): KitchenLine {
  const l = state.kitchenLines[lineId];
  if (!l) throw notFound();
  return l;
}

const mapLines = (state: KitchenTicket, change: (l: KitchenLine) => KitchenLine) =>
  Object.fromEntries(Object.entries(state.kitchenLines).map(([id, l]) => [id, change(l)]));

/** `at` becomes the ticket's readySince when this change left every line finished and it was not ready yet. */
const ready = (t: KitchenTicket, at: number): KitchenTicket =>
  (t.readySince === null && Object.values(t.kitchenLines).every(finished) ? { ...t, readySince: at } : t);

export const kitchenTicket: Decider<KitchenTicketCommand, KitchenTicketEvent, KitchenTicket> = {
  initialState: () => ({
    ticketId: '', orderId: '', stationId: '', tableId: null, tableName: null, waiter: '', firedAt: 0, lines: [],
    opened: false, startedAt: null, bumpedAt: null, closedAt: null, closedReason: null, readySince: null, kitchenLines: {}, version: 0,
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
        // A bumped ticket was started by its bump, a closed one is off every screen: nothing to start.
        if (t.startedAt !== null || t.closedAt !== null) return [];
        return [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }];
      }
      case 'markLineDone': {
        const t = onBoard(state);
        const l = line(t, command.lineId);
        if (l.status === 'done') return [];
        if (l.status === 'cancelled') throw conflict('This line was cancelled by the waiter');
        const started: KitchenTicketEvent[] = t.startedAt === null ? [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }] : [];
        return [...started, { type: 'KitchenLineDone', data: { ...about, lineId: l.lineId, at: command.at } }];
      }
      case 'bumpTicket': {
        const t = opened(state);
        // Bumped or closed: already off the board (a second screen, a late tap, the auto-bump racing a cook).
        if (t.bumpedAt !== null || t.closedAt !== null) return [];
        const started: KitchenTicketEvent[] = t.startedAt === null ? [{ type: 'KitchenTicketStarted', data: { ...about, at: command.at } }] : [];
        const lineIds = Object.values(t.kitchenLines).filter((l) => !finished(l)).map((l) => l.lineId);
        return [...started, { type: 'KitchenTicketBumped', data: { ...about, at: command.at, lineIds, ...(command.auto ? { auto: true as const } : {}) } }];
      }
      case 'recallTicket': {
        const t = onBoard(state);
        if (t.bumpedAt === null) return [];
        return [{ type: 'KitchenTicketRecalled', data: { ...about, at: command.at } }];
      }
      case 'changeLineNotes': {
        const t = opened(state);
        const l = line(t, command.lineId);
        if (l.notes === command.notes || l.status === 'cancelled' || t.closedAt !== null) return [];
        return [{ type: 'KitchenLineNotesChanged', data: { ...about, lineId: l.lineId, notes: command.notes } }];
      }
      case 'cancelLine': {
        const t = opened(state);
        const l = line(t, command.lineId);
        // A dish already cooked stays done: the kitchen's work happened. A closed ticket is history.
        if (finished(l) || t.closedAt !== null) return [];
        return [{ type: 'KitchenLineCancelled', data: { ...about, lineId: l.lineId, ...(command.at === undefined ? {} : { at: command.at }) } }];
      }
      case 'moveTicket': {
        const t = opened(state);
        if ((t.tableId === command.tableId && t.tableName === command.tableName) || t.closedAt !== null) return [];
        return [{ type: 'KitchenTicketMoved', data: { ...about, tableId: command.tableId, tableName: command.tableName } }];
      }
      case 'closeTicket': {
        const t = opened(state);
        // Closed once; a bumped ticket is already off the board and stays recallable until its order is seen finished.
        if (t.closedAt !== null || t.bumpedAt !== null) return [];
        return [{ type: 'KitchenTicketClosed', data: { ...about, at: command.at, reason: command.reason } }];
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
        return ready({ ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, status: 'done' } }, version }, event.data.at);
      }
      case 'KitchenTicketBumped': {
        const done = new Set(event.data.lineIds);
        return { ...state, bumpedAt: event.data.at, kitchenLines: mapLines(state, (l) => (done.has(l.lineId) ? { ...l, status: 'done' } : l)), version };
      }
      case 'KitchenTicketRecalled':
        return ready({ ...state, bumpedAt: null, readySince: null, version }, event.data.at);
      case 'KitchenLineNotesChanged': {
        const l = state.kitchenLines[event.data.lineId]!;
        return { ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, notes: event.data.notes } }, version };
      }
      case 'KitchenLineCancelled': {
        const l = state.kitchenLines[event.data.lineId]!;
        // Cancellations written before they carried a time count from the start of the cooking.
        return ready({ ...state, kitchenLines: { ...state.kitchenLines, [l.lineId]: { ...l, status: 'cancelled' } }, version }, event.data.at ?? state.startedAt ?? state.firedAt);
      }
      case 'KitchenTicketMoved':
        return { ...state, tableId: event.data.tableId, tableName: event.data.tableName, version };
      case 'KitchenTicketClosed':
        return { ...state, closedAt: event.data.at, closedReason: event.data.reason, version };
    }
  },
};

/** True when every line of the ticket is done or cancelled. */
export const ticketFinished = (t: KitchenTicket): boolean => Object.values(t.kitchenLines).every(finished);
