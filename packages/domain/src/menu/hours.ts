import type { FieldError } from '../errors.js';
import { offsetMs } from '../calendar.js';

/**
 * Hours in the restaurant's wall-clock time (COMANDA_TIMEZONE): when a dish or a category is served
 * (breakfast, lunch) and when a price level holds (happy hour). A window is some days of the week and
 * a from–to time; one whose `to` is not after its `from` crosses midnight (Fri 22:00–02:00 runs into
 * Saturday morning) and belongs to the day it starts on. No windows: always.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface HoursWindow {
  days: Weekday[];
  /** HH:MM, 00:00–23:59, local. */
  from: string;
  to: string;
}

/** More windows than a menu needs is a client's loop, not a schedule. */
export const MAX_WINDOWS = 14;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY_MS = 86_400_000;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function hoursErrors(windows: readonly HoursWindow[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (windows.length > MAX_WINDOWS) errors.push({ field, message: `at most ${MAX_WINDOWS} windows` });
  windows.forEach((w, i) => {
    const at = `${field}[${i}]`;
    if (w.days.length === 0 || w.days.some((d) => !WEEKDAYS.includes(d)) || new Set(w.days).size !== w.days.length) {
      errors.push({ field: `${at}.days`, message: `must name days among ${WEEKDAYS.join(', ')}, each once` });
    }
    for (const k of ['from', 'to'] as const) if (!TIME.test(w[k])) errors.push({ field: `${at}.${k}`, message: 'must be a time HH:MM from 00:00 to 23:59' });
    if (w.from === w.to) errors.push({ field: `${at}.to`, message: 'must differ from from (a window of no time, or of a whole day: name the days instead)' });
  });
  return errors;
}

/** Days in the week's order, each once: two managers' same hours compare equal. */
export const sortedHours = (windows: readonly HoursWindow[]): HoursWindow[] =>
  windows.map((w) => ({ days: WEEKDAYS.filter((d) => w.days.includes(d)), from: w.from, to: w.to }));

export const sameHours = (a: readonly HoursWindow[], b: readonly HoursWindow[]) => JSON.stringify(sortedHours(a)) === JSON.stringify(sortedHours(b));

/** The restaurant's wall clock at an instant, as milliseconds of a UTC-less calendar (its day and weekday read with getUTC*). */
export const localMs = (at: number, timeZone: string) => at + offsetMs(at, timeZone);

/** Monday 0 … Sunday 6 of a local day. */
const weekdayOf = (local: number) => (new Date(local).getUTCDay() + 6) % 7;

/** Whether the windows hold at a local wall-clock time; none: always. */
export function openAtLocal(windows: readonly HoursWindow[], local: number): boolean {
  if (windows.length === 0) return true;
  const day = WEEKDAYS[weekdayOf(local)]!;
  const yesterday = WEEKDAYS[(weekdayOf(local) + 6) % 7]!;
  const m = Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
  return windows.some((w) => {
    const from = minutes(w.from);
    const to = minutes(w.to);
    if (from < to) return w.days.includes(day) && m >= from && m < to;
    return (w.days.includes(day) && m >= from) || (w.days.includes(yesterday) && m < to);
  });
}

/**
 * The first local time within a week after `local` at which every set of windows holds, or null
 * (never): such a time is always the start of one of their windows.
 */
export function nextOpening(sets: ReadonlyArray<readonly HoursWindow[]>, local: number): number | null {
  const midnight = Math.floor(local / DAY_MS) * DAY_MS;
  const starts: number[] = [];
  for (let d = 0; d <= 7; d++) {
    const day = WEEKDAYS[weekdayOf(midnight + d * DAY_MS)]!;
    for (const set of sets) for (const w of set) if (w.days.includes(day)) starts.push(midnight + d * DAY_MS + minutes(w.from) * 60_000);
  }
  return starts.filter((s) => s > local && sets.every((set) => openAtLocal(set, s))).sort((a, b) => a - b)[0] ?? null;
}

const LABEL: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** "12:00" later today, "Tue 07:00" another day: what a waiter reads on a greyed dish. */
export function openingLabel(opening: number, local: number): string {
  const time = new Date(opening).toISOString().slice(11, 16);
  return Math.floor(opening / DAY_MS) === Math.floor(local / DAY_MS) ? time : `${LABEL[WEEKDAYS[weekdayOf(opening)]!]} ${time}`;
}

/** Runs of days in the week's order: "Mon–Fri", "Sat, Sun", "every day". */
function daysLabel(days: readonly Weekday[]): string {
  if (days.length === 7) return 'every day';
  const idx = WEEKDAYS.map((d, i) => (days.includes(d) ? i : -1)).filter((i) => i >= 0);
  const runs: number[][] = [];
  for (const i of idx) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] === i - 1) run.push(i);
    else runs.push([i]);
  }
  return runs.map((r) => (r.length > 2 ? `${LABEL[WEEKDAYS[r[0]!]!]}–${LABEL[WEEKDAYS[r[r.length - 1]!]!]}` : r.map((i) => LABEL[WEEKDAYS[i]!]).join(', '))).join(', ');
}

/** "Mon–Fri 07:00–11:30, Sat, Sun 09:00–12:00": hours as a refusal and a menu say them. */
export const hoursLabel = (windows: readonly HoursWindow[]): string =>
  sortedHours(windows).map((w) => `${daysLabel(w.days)} ${w.from}–${w.to}`).join(', ');
