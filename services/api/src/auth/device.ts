import { DEVICE_MAX } from '@comanda/domain';

// Most specific first: Edge and Opera say "Chrome" too, and Chrome says "Safari".
const BROWSERS: Array<[RegExp, string]> = [[/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrome\//, 'Chrome'], [/Safari\//, 'Safari']];
const SYSTEMS: Array<[RegExp, string]> = [[/iPad/, 'iPad'], [/iPhone/, 'iPhone'], [/Android/, 'Android'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'Mac'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']];
const first = (table: Array<[RegExp, string]>, ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1];

/**
 * The name a session's device goes by in the back office: the one the device chose ("Tablet 3"), else
 * the short form of its User-Agent ("Chrome on Android"), else null. A label only: it proves nothing
 * and is shown to managers, so it is trimmed and cut to DEVICE_MAX (the User-Agent is the client's to
 * write, like the label).
 */
export function deviceLabel(chosen: string | undefined, userAgent: string | undefined): string | null {
  const named = chosen?.trim();
  if (named) return named.slice(0, DEVICE_MAX);
  if (!userAgent) return null;
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  const short = browser && system ? `${browser} on ${system}` : (browser ?? system ?? userAgent.split(/[\s/]/)[0]);
  return short ? short.slice(0, DEVICE_MAX) : null;
}
