/**
 * The range of days a manager picks, as the restaurant's calendar days (YYYY-MM-DD in its time zone,
 * the one the reports answer with): the tablet's own clock may sit in another zone than the server's.
 */
export type RangeKind = 'today' | 'yesterday' | 'week' | 'custom';
export interface DayRange { from: string; to: string }

/** en-CA writes dates as YYYY-MM-DD. */
export const dayIn = (timeZone: string, at: Date): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** A calendar day moved by whole days (noon UTC: no daylight-saving edge can move it twice). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** This week runs from Monday (the ISO week) to today. */
export function rangeOf(kind: Exclude<RangeKind, 'custom'>, timeZone: string, now = new Date()): DayRange {
  const today = dayIn(timeZone, now);
  if (kind === 'today') return { from: today, to: today };
  if (kind === 'yesterday') return { from: addDays(today, -1), to: addDays(today, -1) };
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7;
  return { from: addDays(today, -weekday), to: today };
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
