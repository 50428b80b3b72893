import type { TimeClockEvent } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/**
 * Each shift of work on the time clock (issue 60), as the back office lists it and the hours report adds
 * it up: when it began and ended, its breaks, and the manager's corrections (who and why). A corrected
 * shift keeps its punched breaks' total only as the manager set it.
 */
export type TimeShiftView = Tracked & {
  id: string; user_id: string;
  clocked_in_at: number; clocked_out_at: number | null;
  /** The break under way (ms), if any. */
  break_since: number | null;
  /** Break time taken, ms (ended breaks, or the manager's figure). */
  break_ms: number;
  corrections: Array<{ by: string; reason: string; at: number }>;
};

export const TIME_SHIFTS = 'time_shifts';

export const timeShiftsProjection = projectionOf<TimeClockEvent>({
  name: 'time-shifts',
  handles: ['ClockedIn', 'BreakStarted', 'BreakEnded', 'ClockedOut', 'TimeCorrected'],
  collections: { [TIME_SHIFTS]: [{ clocked_in_at: 1 }, { user_id: 1, clocked_out_at: 1 }] },
  async apply(e, store) {
    const d = e.data;
    await updateDocument(store.collection<TimeShiftView>(TIME_SHIFTS), d.shiftId, e, (s) => {
      switch (e.type) {
        case 'ClockedIn':
          return { _id: d.shiftId, id: d.shiftId, user_id: d.userId, clocked_in_at: d.at, clocked_out_at: null, break_since: null, break_ms: 0, corrections: [] };
        case 'BreakStarted':
          return s ? { ...s, break_since: d.at } : undefined;
        case 'BreakEnded':
          return s && s.break_since !== null ? { ...s, break_since: null, break_ms: s.break_ms + (d.at - s.break_since) } : undefined;
        case 'ClockedOut':
          return s ? { ...s, clocked_out_at: d.at } : undefined;
        case 'TimeCorrected': {
          const c = e.data;
          return {
            _id: c.shiftId, id: c.shiftId, user_id: c.userId, clocked_in_at: c.clockedInAt, clocked_out_at: c.clockedOutAt, break_since: null,
            break_ms: c.breakMinutes * 60_000, corrections: [...(s?.corrections ?? []), { by: c.by, reason: c.reason, at: c.at }],
          };
        }
      }
    });
  },
});

// The shift arithmetic lives in the domain: the waiters report (packages/analytics) adds hours up with the same functions.
export { breakMs, workedMs } from '@comanda/domain';
