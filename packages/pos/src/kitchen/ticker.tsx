import { useEffect, useState } from 'preact/hooks';

/** One interval for the whole screen: the clock and every timer on the board move on the same second. */
const listeners = new Set<(now: number) => void>();
let interval: ReturnType<typeof setInterval> | undefined;

/** Calls `listener` now and every second after, until the returned function is called. */
export function everySecond(listener: (now: number) => void): () => void {
  listeners.add(listener);
  listener(Date.now());
  interval ??= setInterval(() => {
    const now = Date.now();
    for (const l of listeners) l(now);
  }, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(interval);
      interval = undefined;
    }
  };
}

/** m:ss, or h:mm:ss past an hour (a ticket forgotten on the board). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** The time of day on the bar, hh:mm. */
export function Clock() {
  const [now, setNow] = useState(Date.now);
  useEffect(() => everySecond(setNow), []);
  return <span id="clock">{new Date(now).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</span>;
}
