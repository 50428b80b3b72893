/** One interval for the whole screen: every timer on the board moves on the same second. */
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

/**
 * A ref whose element's text follows the clock (`text(now)`), written in place each second: the
 * thousands of timers of a board move without rendering anything. Preact owns the element (rendered
 * without children), the ticker its text; the ref's cleanup stops it when the element goes.
 */
export const ticking = (text: (now: number) => string) => (element: HTMLElement | null) => {
  if (!element) return;
  let shown = '';
  return everySecond((now) => {
    const next = text(now);
    if (next !== shown) element.textContent = shown = next;
  });
};

const timeOfDay = ticking((now) => new Date(now).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));

/** The time of day on the bar, hh:mm. */
export function Clock() {
  return <span id="clock" ref={timeOfDay} />;
}
