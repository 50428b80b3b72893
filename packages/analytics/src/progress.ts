import type { ReplayProgress } from './replay.js';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function eta(p: ReplayProgress): string {
  const fraction = Number(p.position) / Number(p.head);
  if (fraction <= 0 || p.seconds <= 0) return '?';
  const left = (p.seconds / fraction) * (1 - fraction);
  return left >= 60 ? `${Math.floor(left / 60)}m${String(Math.round(left % 60)).padStart(2, '0')}s` : `${left.toFixed(1)}s`;
}

/**
 * Replay progress on stderr: a bar redrawn in place on a terminal (events, events/s, ETA), plain
 * lines at most once a second otherwise (logs, CI), and always a last line.
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr): { update(p: ReplayProgress): void; finish(p: ReplayProgress | null): void } {
  const tty = Boolean(stream.isTTY);
  let lastPrinted = -1;
  const line = (p: ReplayProgress) => {
    const rate = p.seconds > 0 ? p.events / p.seconds : 0;
    return `${fmt(p.events)} events, ${fmt(rate)} events/s, ETA ${eta(p)}`;
  };
  return {
    update(p) {
      if (tty) {
        const width = 30;
        const filled = Math.min(width, Math.round((Number(p.position) / Number(p.head)) * width));
        stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line(p)}\x1b[K`);
      } else if (Math.floor(p.seconds) > lastPrinted) {
        lastPrinted = Math.floor(p.seconds);
        stream.write(`replay: ${line(p)}\n`);
      }
    },
    finish(p) {
      const summary = p ? `replayed ${fmt(p.events)} events in ${p.seconds.toFixed(2)} s (${fmt(p.seconds > 0 ? p.events / p.seconds : p.events)} events/s)` : 'the event log is empty';
      stream.write(tty ? `\r${summary}\x1b[K\n` : `replay: ${summary}\n`);
    },
  };
}
