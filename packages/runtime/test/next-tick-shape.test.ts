import t from 'tap';
import { keepNextTickShape, keptNextTickEntry } from '../src/index.js';

t.test('the entry kept is one of process.nextTick\'s, and each call takes a fresh one', async (t) => {
  keepNextTickShape();
  const first = keptNextTickEntry();
  t.ok(first, 'an entry is kept');
  t.same(Object.getOwnPropertySymbols(first).map(String), ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'], 'with the keys of Node\'s queue entries');
  t.match(first, { callback: Function }, 'and its callback');
  keepNextTickShape();
  t.not(keptNextTickEntry(), first, 'a later call keeps the entry current then');
});

// That the entry kept does keep process.nextTick on its fast path is checked in a process that runs as the
// service does (test/e2e/next-tick.test.ts): under tap's coverage V8 keeps its feedback differently.
