import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { isOneOf, projectionOf } from '../src/projection.js';

type Rung = { type: 'Rung'; data: { bell: string } } | { type: 'Silenced'; data: { bell: string; why: string } };

const recorded = (type: string, data: unknown): RecordedEvent => ({ id: type, stream: 'bells', revision: 0, position: 1n, type, data, metadata: {}, recordedAt: 0 });

t.test('a typed projection is handed only the events it names, typed by their union', async (t) => {
  const seen: string[] = [];
  const bells = projectionOf<Rung>({
    name: 'bells',
    handles: ['Rung', 'Silenced'],
    async apply(e) {
      // Narrowed by type: `why` exists only on Silenced.
      seen.push(e.type === 'Silenced' ? `${e.data.bell} silenced: ${e.data.why}` : `${e.data.bell} rung`);
    },
  });
  const store = new MemoryReadStore();
  await bells.apply(recorded('Rung', { bell: 'door' }), store);
  await bells.apply(recorded('OrderPlaced', { bell: 'never' }), store);
  await bells.apply(recorded('Silenced', { bell: 'door', why: 'night' }), store);
  t.same(seen, ['door rung', 'door silenced: night']);
  t.same(bells.handles, ['Rung', 'Silenced']);
  t.ok(isOneOf<Rung>(recorded('Rung', {}), ['Rung']));
  t.notOk(isOneOf<Rung>(recorded('Rung', {}), ['Silenced']));
});
