import t from 'tap';
import { TurnBatches } from '../src/turn-batches.js';

const turn = () => new Promise((r) => setImmediate(r));

t.test('what is asked in one turn goes as one batch, at most `max` a batch', async (t) => {
  const sent: number[][] = [];
  const batches = new TurnBatches<number>(async (batch) => void sent.push(batch), 3, 5);
  for (let i = 0; i < 7; i++) batches.add(i);
  t.same(sent, [], 'nothing before the turn ends');
  await turn();
  t.same(sent, [[0, 1, 2], [3, 4, 5], [6]]);
});

t.test('at most `inFlight` batches out; what is asked meanwhile goes together in the next, even after a failure', async (t) => {
  const sent: number[][] = [];
  const finish: Array<(ok: boolean) => void> = [];
  const batches = new TurnBatches<number>((batch) => {
    sent.push(batch);
    return new Promise<void>((resolve, reject) => finish.push((ok) => (ok ? resolve() : reject(new Error('lost')))));
  }, 100, 2);
  batches.add(1);
  await turn();
  batches.add(2);
  await turn();
  for (let i = 3; i <= 6; i++) batches.add(i);
  await turn();
  t.same(sent, [[1], [2]], 'two out, four waiting');
  finish[0]!(false);
  await turn();
  t.same(sent, [[1], [2], [3, 4, 5, 6]], 'a failed batch frees its place too');
  finish[1]!(true);
  finish[2]!(true);
  batches.add(7);
  await turn();
  t.same(sent.at(-1), [7], 'and the next turn is sent at once');
});
