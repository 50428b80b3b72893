import type { Decider } from '../decider.js';
import { conflict, notFound } from '../errors.js';

/**
 * Dishes a guest asks for from the table's QR (issue 63, `guestrequest-<id>`): nothing reaches the
 * kitchen or the bill until a waiter accepts it, which puts the lines on the table's order (unfired:
 * the waiter fires them). Its own stream, so a table's phones never contend with the order's writes,
 * and the waiter's answer is recorded with who gave it.
 */
export const guestRequestStream = (requestId: string) => `guestrequest-${requestId}`;

/** One dish asked for: how many, and what the guest wrote ("sin cebolla"). */
export interface GuestRequestLine { dishId: string; quantity: number; notes: string }

export type GuestRequestStatus = 'open' | 'accepted' | 'declined';

export interface GuestRequest {
  requestId: string;
  tableId: string;
  lines: GuestRequestLine[];
  at: number;
  /** null: never asked. */
  status: GuestRequestStatus | null;
  /** The order the lines went on, once accepted. */
  orderId: string | null;
  by: string | null;
  reason: string | null;
}

export type GuestRequestEvent =
  | { type: 'GuestDishesRequested'; data: { requestId: string; tableId: string; lines: GuestRequestLine[]; at: number } }
  | { type: 'GuestRequestAccepted'; data: { requestId: string; tableId: string; orderId: string; by: string; at: number } }
  | { type: 'GuestRequestDeclined'; data: { requestId: string; tableId: string; by: string; reason: string; at: number } };

export type GuestRequestCommand =
  | { type: 'requestDishes'; requestId: string; tableId: string; lines: GuestRequestLine[]; at: number }
  | { type: 'acceptRequest'; orderId: string; by: string; at: number }
  | { type: 'declineRequest'; by: string; reason: string; at: number };

const answered = (s: GuestRequest) => conflict(`This request was already ${s.status}`);

export const guestRequest: Decider<GuestRequestCommand, GuestRequestEvent, GuestRequest> = {
  initialState: () => ({ requestId: '', tableId: '', lines: [], at: 0, status: null, orderId: null, by: null, reason: null }),

  decide(command, state) {
    switch (command.type) {
      case 'requestDishes':
        // A phone's retry (the same request id) meets its own request.
        if (state.status !== null) return [];
        return [{ type: 'GuestDishesRequested', data: { requestId: command.requestId, tableId: command.tableId, lines: command.lines, at: command.at } }];
      case 'acceptRequest':
        if (state.status === null) throw notFound();
        // Accepting again onto the same order is the same answer (a retried tap); anything else was decided already.
        if (state.status === 'accepted' && state.orderId === command.orderId) return [];
        if (state.status !== 'open') throw answered(state);
        return [{ type: 'GuestRequestAccepted', data: { requestId: state.requestId, tableId: state.tableId, orderId: command.orderId, by: command.by, at: command.at } }];
      case 'declineRequest':
        if (state.status === null) throw notFound();
        if (state.status === 'declined') return [];
        if (state.status !== 'open') throw answered(state);
        return [{ type: 'GuestRequestDeclined', data: { requestId: state.requestId, tableId: state.tableId, by: command.by, reason: command.reason, at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'GuestDishesRequested':
        return { ...state, ...event.data, status: 'open' };
      case 'GuestRequestAccepted':
        return { ...state, status: 'accepted', orderId: event.data.orderId, by: event.data.by };
      case 'GuestRequestDeclined':
        return { ...state, status: 'declined', by: event.data.by, reason: event.data.reason };
    }
  },
};
