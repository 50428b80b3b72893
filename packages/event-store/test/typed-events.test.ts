import t from 'tap';
import { type RecordedEvent, type ReplayedEvent, isOneOf } from '../src/index.js';

type Opened = { type: 'TabOpened'; data: { tab: string } };
type Added = { type: 'LineAdded'; data: { cents: number } };

const recorded: RecordedEvent = { id: 'e1', stream: 'tab-1', revision: 0, position: 1n, type: 'LineAdded', data: { cents: 250 }, metadata: {}, recordedAt: 0 };

t.test('isOneOf narrows an event of the log to the domain events it names, recorded or replayed', async (t) => {
  t.ok(isOneOf<Opened | Added>(recorded, ['TabOpened', 'LineAdded']));
  t.notOk(isOneOf<Opened>(recorded, ['TabOpened']), 'another type is not one of them');
  if (isOneOf<Added>(recorded, ['LineAdded'])) t.equal(recorded.data.cents + recorded.revision, 250, 'typed data, and the log\'s fields still there');
  const { id: _id, revision: _revision, ...rest } = recorded;
  const replayed: ReplayedEvent = rest;
  if (isOneOf<Added>(replayed, ['LineAdded'])) t.equal(replayed.data.cents, 250);
  else t.fail('a replayed event is narrowed too');
});
