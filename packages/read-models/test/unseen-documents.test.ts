import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { USERS, allProjections } from '../src/index.js';
import { bump } from '../src/versioned.js';

/** A read model rebuilt from a log whose start was pruned (or a projection added late) meets events for documents it never saw. */
t.test('an event for a document the read model never saw changes nothing', async (t) => {
  t.equal(bump(null, { name: 'x' } as never), undefined, 'bump of no document');
  t.same(bump({ _id: 'a', _position: '1', version: 2 }, {}), { _id: 'a', _position: '1', version: 3 }, 'a known one moves on by one');
  const store = new MemoryReadStore();
  const userId = '11111111-0000-4000-8000-000000000000';
  const event: RecordedEvent = { id: 'e1', stream: 'staff', revision: 0, position: 1n, type: 'UserRoleChanged', data: { userId, role: 'manager' }, metadata: {}, recordedAt: 0 };
  for (const p of allProjections.filter((p) => p.handles.includes(event.type))) await p.apply(event, store);
  t.equal(await store.collection(USERS).get(userId), null, 'no user made from an update');
});
