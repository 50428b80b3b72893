import t from 'tap';
import { LocalProgress } from '../src/index.js';

t.test('the process\'s progress: waiters released by a report at or past their position, never by one before', async (t) => {
  const progress = new LocalProgress();
  t.equal(await progress.position('projector'), null, 'never reported');
  const waiting = [progress.waitFor('projector', 5n, 60_000), progress.waitFor('projector', 7n, 60_000), progress.waitFor('reactions:through', 5n, 60_000)];
  progress.report('projector', 4n);
  progress.report('projector', 6n);
  t.equal(await waiting[0], true, 'released at 6 for 5');
  progress.report('projector', 3n);
  t.equal(await progress.position('projector'), 6n, 'never backwards');
  t.equal(await progress.waitFor('projector', 6n, 0), true, 'reached: true at once, whatever the bound');
  t.equal(await progress.waitFor('projector', 9n, 20), false, 'not reached by the bound: false');
  progress.close();
  t.same(await Promise.all(waiting.slice(1)), [false, false], 'those still waiting at close: false');
  t.equal(await progress.waitFor('projector', 8n, 60_000), false, 'after close: false at once');
});
