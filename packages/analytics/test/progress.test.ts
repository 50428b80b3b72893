import t from 'tap';
import { progressPrinter } from '../src/progress.js';

/** A stream that keeps what is written, a terminal or not. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WriteStream };
}

const at = (events: number, seconds: number, head = 1000) => ({ events, position: BigInt(events), head: BigInt(head), seconds });

t.test('on a terminal: a bar redrawn in place with events, events/s and the time left, then a last line', async (t) => {
  const { written, stream: s } = stream(true);
  const p = progressPrinter(s);
  p.update(at(250, 0.5));
  p.update(at(500, 1));
  p.finish(at(1000, 2));
  t.same(written, [
    '\r[########......................] 250 events, 500 events/s, ETA 1.5s\x1b[K',
    '\r[###############...............] 500 events, 500 events/s, ETA 1.0s\x1b[K',
    '\rreplayed 1,000 events in 2.00 s (500 events/s)\x1b[K\n',
  ]);
});

t.test('elsewhere (a log, CI): plain lines at most once a second, and a last line', async (t) => {
  const { written, stream: s } = stream(false);
  const p = progressPrinter(s);
  p.update(at(100, 0.2));
  p.update(at(300, 0.6));
  p.update(at(600, 1.2));
  p.update(at(20_000, 90, 60_000));
  p.finish(at(60_000, 200, 60_000));
  t.same(written, [
    'replay: 100 events, 500 events/s, ETA 1.8s\n',
    'replay: 600 events, 500 events/s, ETA 0.8s\n',
    'replay: 20,000 events, 222 events/s, ETA 3m00s\n',
    'replay: replayed 60,000 events in 200.00 s (300 events/s)\n',
  ]);
});

t.test('an empty log says so; a start with no time yet has no ETA', async (t) => {
  const { written, stream: s } = stream(false);
  const p = progressPrinter(s);
  p.update(at(0, 0));
  p.finish(null);
  t.same(written, ['replay: 0 events, 0 events/s, ETA ?\n', 'replay: the event log is empty\n']);
});
