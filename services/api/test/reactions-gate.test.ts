import t from 'tap';
import { LocalProgress, REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import { ReactionsGate } from '../src/reactions-gate.js';

/** Issue 58: one gate over the process's progress (the standalone) as over the shared checkpoints (replicas). */
t.test('no reactor has ever reported: the read models alone are waited on', async (t) => {
  const progress = new LocalProgress();
  const gate = new ReactionsGate(progress);
  progress.report('projector', 10n);
  t.equal(await gate.waitFor(10n, 1_000), true);
  t.equal(await gate.waitFor(11n, 10), false);
});

t.test('a reactor beside the read models: the write, its reactions, then what they appended', async (t) => {
  const progress = new LocalProgress();
  progress.report(REACTIONS_THROUGH, -1n);
  const gate = new ReactionsGate(progress);
  progress.report('projector', 10n);
  let answered: boolean | undefined;
  const waiting = gate.waitFor(10n, 60_000).then((ok) => (answered = ok));
  await new Promise((r) => setImmediate(r));
  t.equal(answered, undefined, 'the read models hold the write, the reactor has not reacted to it: still waiting');
  progress.report(REACTIONS_APPENDED, 12n);
  progress.report(REACTIONS_THROUGH, 10n);
  await new Promise((r) => setImmediate(r));
  t.equal(answered, undefined, 'reacted to: waiting for the read models to hold what the reactions appended');
  progress.report('projector', 12n);
  t.equal(await waiting, true);
});

t.test('a reactor still behind at the bound: false, though the read models hold the write', async (t) => {
  const progress = new LocalProgress();
  progress.report(REACTIONS_THROUGH, 5n);
  progress.report('projector', 10n);
  t.equal(await new ReactionsGate(progress).waitFor(10n, 30), false, 'a 202, not a 200 whose reactions the next read would miss');
});
