import type { Decider } from '../decider.js';
import { conflict, validationFailed } from '../errors.js';
import { REASON_MAX } from './approval.js';

/**
 * A member of staff's time clock (issue 60): clocked in, on a break, back, clocked out, each with the
 * PIN at any tablet; a manager's correction of a shift (a forgotten clock-out, a break never punched)
 * recorded with who and why. One stream per member (`time-clock-<userId>`): punches of two waiters never
 * wait for each other, and a member can be in at most one shift at a time.
 */
export const timeClockStream = (userId: string) => `time-clock-${userId}`;

/** A correction longer than this is a typo (a wrong day), not a shift. */
export const MAX_SHIFT_MS = 24 * 60 * 60 * 1000;

export interface TimeClock {
  /** The shift under way, or null when clocked out. */
  open: { shiftId: string; since: number; breakSince: number | null } | null;
  /** Every shift this member has had: a correction names one of them, or records a missing one. */
  shifts: string[];
}

export type TimeClockEvent =
  | { type: 'ClockedIn'; data: { userId: string; shiftId: string; at: number } }
  | { type: 'BreakStarted'; data: { userId: string; shiftId: string; at: number } }
  | { type: 'BreakEnded'; data: { userId: string; shiftId: string; at: number } }
  | { type: 'ClockedOut'; data: { userId: string; shiftId: string; at: number } }
  /** A shift as a manager set it: its times and its breaks in minutes, replacing what was punched. */
  | { type: 'TimeCorrected'; data: { userId: string; shiftId: string; clockedInAt: number; clockedOutAt: number; breakMinutes: number; by: string; reason: string; at: number } };

export type TimeClockCommand =
  | { type: 'clockIn'; userId: string; shiftId: string; at: number }
  | { type: 'startBreak'; userId: string; at: number }
  | { type: 'endBreak'; userId: string; at: number }
  | { type: 'clockOut'; userId: string; at: number }
  | { type: 'correctShift'; userId: string; shiftId: string; clockedInAt: number; clockedOutAt: number; breakMinutes: number; by: string; reason: string; at: number };

const notIn = () => conflict('Not clocked in', { code: 'not_clocked_in' });

function checkCorrection(c: Extract<TimeClockCommand, { type: 'correctShift' }>): string {
  const reason = c.reason.trim();
  const errors: Array<{ field: string; message: string }> = [];
  if (reason.length === 0 || reason.length > REASON_MAX) errors.push({ field: 'reason', message: `must say why, in 1 to ${REASON_MAX} characters` });
  const length = c.clockedOutAt - c.clockedInAt;
  if (!(length > 0)) errors.push({ field: 'clocked_out_at', message: 'must be after clocked_in_at' });
  else if (length > MAX_SHIFT_MS) errors.push({ field: 'clocked_out_at', message: 'a shift lasts at most 24 hours' });
  if (c.clockedOutAt > c.at) errors.push({ field: 'clocked_out_at', message: 'must not be in the future' });
  if (!Number.isInteger(c.breakMinutes) || c.breakMinutes < 0 || (length > 0 && c.breakMinutes * 60_000 >= length)) {
    errors.push({ field: 'break_minutes', message: 'must be a whole number of minutes, shorter than the shift' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return reason;
}

export const timeClock: Decider<TimeClockCommand, TimeClockEvent, TimeClock> = {
  initialState: () => ({ open: null, shifts: [] }),

  decide(command, state) {
    const { userId, at } = command;
    const open = state.open;
    switch (command.type) {
      case 'clockIn':
        if (open) throw conflict('Already clocked in', { code: 'clocked_in', since: open.since });
        return [{ type: 'ClockedIn', data: { userId, shiftId: command.shiftId, at } }];
      case 'startBreak':
        if (!open) throw notIn();
        if (open.breakSince !== null) throw conflict('Already on a break', { code: 'on_break', since: open.breakSince });
        return [{ type: 'BreakStarted', data: { userId, shiftId: open.shiftId, at } }];
      case 'endBreak':
        if (!open) throw notIn();
        if (open.breakSince === null) throw conflict('Not on a break', { code: 'not_on_break' });
        return [{ type: 'BreakEnded', data: { userId, shiftId: open.shiftId, at } }];
      case 'clockOut': {
        if (!open) throw notIn();
        // Clocking out from a break ends the break first: the break is not worked time.
        const back: TimeClockEvent[] = open.breakSince === null ? [] : [{ type: 'BreakEnded', data: { userId, shiftId: open.shiftId, at } }];
        return [...back, { type: 'ClockedOut', data: { userId, shiftId: open.shiftId, at } }];
      }
      case 'correctShift': {
        const reason = checkCorrection(command);
        const { shiftId, clockedInAt, clockedOutAt, breakMinutes, by } = command;
        return [{ type: 'TimeCorrected', data: { userId, shiftId, clockedInAt, clockedOutAt, breakMinutes, by, reason, at } }];
      }
    }
  },

  evolve(state, event) {
    const d = event.data;
    switch (event.type) {
      case 'ClockedIn':
        return { open: { shiftId: d.shiftId, since: d.at, breakSince: null }, shifts: [...state.shifts, d.shiftId] };
      case 'BreakStarted':
        return state.open ? { ...state, open: { ...state.open, breakSince: d.at } } : state;
      case 'BreakEnded':
        return state.open ? { ...state, open: { ...state.open, breakSince: null } } : state;
      case 'ClockedOut':
        return { ...state, open: null };
      case 'TimeCorrected':
        // A correction of the shift under way closes it (its clock-out was given); a missing one is added.
        return {
          open: state.open?.shiftId === d.shiftId ? null : state.open,
          shifts: state.shifts.includes(d.shiftId) ? state.shifts : [...state.shifts, d.shiftId],
        };
    }
  },
};

/** A shift's times as the time clock's read model keeps them (ms): `break_since` is the break under way, `break_ms` the breaks ended. */
export interface ShiftTimes { clocked_in_at: number; clocked_out_at: number | null; break_since: number | null; break_ms: number }

/** Break time of a shift in ms: the breaks ended, and the one under way until clock-out (or `now`). */
export function breakMs(shift: ShiftTimes, now: number): number {
  const end = shift.clocked_out_at ?? now;
  return shift.break_ms + (shift.break_since === null ? 0 : Math.max(0, end - shift.break_since));
}

/** Worked time of a shift in ms: from clock-in to clock-out (or `now` while under way), breaks taken off. */
export function workedMs(shift: ShiftTimes, now: number): number {
  return Math.max(0, (shift.clocked_out_at ?? now) - shift.clocked_in_at - breakMs(shift, now));
}
