import type { Decider } from '../decider.js';
import { conflict, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import type { ZReport } from './z-report.js';

/**
 * The till's shifts, one singleton stream (`shifts`): at most one shift is open, so opening and closing
 * are decided against every shift at once. Payments name the shift they were taken in; the Z report
 * is computed when the shift closes and recorded in `ShiftClosed`, so a printed report never changes.
 */
export const SHIFTS_STREAM = 'shifts';

export interface OpenShift { shiftId: string; number: number; cashFloatCents: Cents; openedAt: number; openedBy: string | null }

export interface Shifts {
  open: OpenShift | null;
  /** How many shifts were ever opened: the next one is number count + 1. */
  count: number;
  /** When the last shift closed: card payments taken after it with no shift open go into the next report. */
  lastClosedAt: number;
  /** The last closed shift and what its report counted: a payment of it that landed after the close is counted next. */
  lastClosed: { shiftId: string; paymentIds: string[]; refundIds: string[] } | null;
}

export type ShiftEvent =
  | { type: 'ShiftOpened'; data: OpenShift }
  | { type: 'ShiftClosed'; data: { shiftId: string; countedCashCents: Cents; closedAt: number; closedBy: string | null; report: ZReport } };

export type ShiftCommand =
  | { type: 'openShift'; shiftId: string; cashFloatCents: Cents; at: number; by: string | null }
  /** `shiftId` is the shift the report was computed for: if another shift is open now, the report is stale. */
  | { type: 'closeShift'; shiftId: string; countedCashCents: Cents; report: ZReport; at: number; by: string | null };

export const noOpenShift = () => conflict('No open shift');

export const shifts: Decider<ShiftCommand, ShiftEvent, Shifts> = {
  initialState: () => ({ open: null, count: 0, lastClosedAt: 0, lastClosed: null }),

  decide(command, state) {
    switch (command.type) {
      case 'openShift': {
        if (state.open?.shiftId === command.shiftId) return [];
        if (state.open) throw conflict(`Shift ${state.open.number} is already open; close it first`);
        if (!Number.isSafeInteger(command.cashFloatCents) || command.cashFloatCents < 0) throw validationFailed([{ field: 'cash_float', message: 'must not be negative' }]);
        const { shiftId, cashFloatCents, at, by } = command;
        return [{ type: 'ShiftOpened', data: { shiftId, number: state.count + 1, cashFloatCents, openedAt: at, openedBy: by } }];
      }
      case 'closeShift': {
        if (!state.open) throw noOpenShift();
        if (state.open.shiftId !== command.shiftId) throw conflict('Another shift was opened meanwhile; close again');
        const { shiftId, countedCashCents, report, at, by } = command;
        return [{ type: 'ShiftClosed', data: { shiftId, countedCashCents, closedAt: at, closedBy: by, report } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ShiftOpened':
        return { ...state, open: event.data, count: event.data.number };
      case 'ShiftClosed':
        return {
          ...state, open: null, lastClosedAt: event.data.closedAt,
          lastClosed: { shiftId: event.data.shiftId, paymentIds: event.data.report.counted.paymentIds, refundIds: event.data.report.counted.refundIds },
        };
    }
  },
};
