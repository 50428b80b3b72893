import t from 'tap';
import { dayRange, isCalendarDate, startOfDay } from '../src/index.js';

t.test('calendar dates are validated', async (t) => {
  t.ok(isCalendarDate('2026-11-21'));
  t.ok(isCalendarDate('2024-02-29'));
  for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '26-11-21', '2026-1-01', '2026-11-21T00:00', '']) t.notOk(isCalendarDate(bad), bad);
});

t.test('days start at local midnight in the restaurant time zone', async (t) => {
  t.equal(new Date(startOfDay('2026-11-21', 'UTC')).toISOString(), '2026-11-21T00:00:00.000Z');
  t.equal(new Date(startOfDay('2026-11-21', 'America/Mexico_City')).toISOString(), '2026-11-21T06:00:00.000Z');
  t.equal(new Date(startOfDay('2026-11-21', 'Asia/Tokyo')).toISOString(), '2026-11-20T15:00:00.000Z');
  t.equal(new Date(startOfDay('2026-11-21', 'Asia/Kolkata')).toISOString(), '2026-11-20T18:30:00.000Z');
});

t.test('days around daylight saving last 23 or 25 hours', async (t) => {
  const spring = dayRange('2026-03-08', 'America/New_York');
  t.equal((spring.end - spring.start) / 3_600_000, 23);
  t.equal(new Date(spring.start).toISOString(), '2026-03-08T05:00:00.000Z');
  const autumn = dayRange('2026-11-01', 'America/New_York');
  t.equal((autumn.end - autumn.start) / 3_600_000, 25);
  t.equal(new Date(autumn.end).toISOString(), '2026-11-02T05:00:00.000Z');
});

t.test('the edges of the calendar: years 0001–0099 and 9999-12-31', async (t) => {
  t.ok(isCalendarDate('0001-01-01'));
  t.ok(isCalendarDate('0099-12-31'));
  t.ok(isCalendarDate('9999-12-31'));
  t.notOk(isCalendarDate('0000-01-01'), 'there is no year 0');
  t.notOk(isCalendarDate('0004-02-30'));
  t.equal(new Date(startOfDay('0001-01-01', 'UTC')).toISOString(), '0001-01-01T00:00:00.000Z');
  t.equal(new Date(startOfDay('0050-06-15', 'UTC')).toISOString(), '0050-06-15T00:00:00.000Z', 'not 1950');
  const last = dayRange('9999-12-31', 'America/Mexico_City');
  t.equal((last.end - last.start) / 3_600_000, 24);
  t.equal(new Date(last.end).toISOString(), '+010000-01-01T06:00:00.000Z');
  const first = dayRange('0001-01-01', 'Asia/Tokyo');
  t.ok(Number.isFinite(first.start) && first.end > first.start);
});
