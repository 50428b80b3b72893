/**
 * Calendar days in the restaurant's time zone. A day is [start, end) in UTC milliseconds; around a
 * daylight-saving change a day may last 23 or 25 hours.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** UTC midnight of a date; Date.UTC alone would read years 0–99 as 1900–1999. */
function utcMidnight(y: number, m: number, d: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date;
}

/** YYYY-MM-DD with years 0001–9999 (what the API accepts); day 10000-01-01 exists only as an end. */
const isoDay = (date: Date): string =>
  `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;

export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return false;
  const probe = utcMidnight(y, mo, d);
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** How far `timeZone`'s wall clock is ahead of UTC at the instant `utcMs` (ms; negative west of Greenwich). */
export function offsetMs(utcMs: number, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(utcMs)).map((x) => [x.type, x.value]));
  const local = utcMidnight(Number(p.year), Number(p.month), Number(p.day));
  local.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second));
  const asUtc = local.getTime();
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** UTC milliseconds of local midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export function startOfDay(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const naive = utcMidnight(y, m, d).getTime();
  let start = naive - offsetMs(naive, timeZone);
  // The offset at the guess may differ from the offset at the real instant (DST): settle it.
  start = naive - offsetMs(start, timeZone);
  return start;
}

const ranges = new Map<string, { start: number; end: number }>();

/**
 * [start, end) of a calendar day in a time zone. Remembered (a few hundred days at most): working it
 * out takes four time-zone conversions, the most of a sales-of-the-day request.
 */
export function dayRange(date: string, timeZone: string): { start: number; end: number } {
  const key = `${timeZone} ${date}`;
  const known = ranges.get(key);
  if (known) return { ...known };
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = isoDay(utcMidnight(y, m, d + 1));
  const range = { start: startOfDay(date, timeZone), end: startOfDay(next, timeZone) };
  if (ranges.size >= 1000) ranges.delete(ranges.keys().next().value!);
  ranges.set(key, range);
  return { ...range };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in `timeZone`: the restaurant's business day. */
export const businessDay = (utcMs: number, timeZone: string): string => isoDay(new Date(utcMs + offsetMs(utcMs, timeZone)));
