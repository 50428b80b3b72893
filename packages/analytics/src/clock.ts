import { dayRange, offsetMs } from '@comanda/domain';

/** Where an instant falls on the restaurant's calendar. */
export interface Place {
  /** YYYY-MM-DD in the restaurant's time zone. */
  day: string;
  /** 0–23, the local wall-clock hour. */
  hour: number;
  /** 0 = Monday … 6 = Sunday, the local weekday. */
  weekday: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface CachedDay { start: number; end: number; day: string; weekday: number; offsetBefore: number; offsetAfter: number; switchAt: number }

/**
 * Days and hours in the restaurant's time zone (`COMANDA_TIMEZONE`), fast enough for a replay: asking
 * Intl for every event would cost more than the rest of the fold, so the clock remembers the local day
 * the last instant fell in (events come in time order, so nearly every event hits it) and, for a day
 * with a daylight-saving change, the instant the offset changes.
 */
export class LocalClock {
  private cached: CachedDay | null = null;
  readonly timeZone: string;
  constructor(timeZone: string) {
    this.timeZone = timeZone;
  }

  place(utcMs: number): Place {
    let c = this.cached;
    if (c === null || utcMs < c.start || utcMs >= c.end) c = this.cached = this.dayOf(utcMs);
    const offset = utcMs < c.switchAt ? c.offsetBefore : c.offsetAfter;
    const local = utcMs + offset;
    const hour = Math.floor((((local % DAY) + DAY) % DAY) / HOUR);
    return { day: c.day, hour, weekday: c.weekday };
  }

  /** The local day of an instant (YYYY-MM-DD). */
  day(utcMs: number): string {
    return this.place(utcMs).day;
  }

  private dayOf(utcMs: number): CachedDay {
    const local = new Date(utcMs + offsetMs(utcMs, this.timeZone));
    const day = local.toISOString().slice(0, 10);
    const { start, end } = dayRange(day, this.timeZone);
    const offsetBefore = offsetMs(start, this.timeZone);
    const offsetAfter = offsetMs(end - 1, this.timeZone);
    // At most one change a day: find the first millisecond at the new offset.
    let switchAt = end;
    if (offsetBefore !== offsetAfter) {
      let lo = start;
      let hi = end - 1;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMs(mid, this.timeZone) === offsetBefore) lo = mid;
        else hi = mid;
      }
      switchAt = hi;
    }
    const weekday = (local.getUTCDay() + 6) % 7;
    return { start, end, day, weekday, offsetBefore, offsetAfter, switchAt };
  }
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
