import t from 'tap';
import { FLOOR_STREAM, floor, newId } from '@comanda/domain';
import { addTable, changeSection, drawSection, moveTable, removeSection, reshapeTable } from '../src/index.js';
import { restaurant } from './restaurant.js';

t.test('the floor plan: a table added on a cell, moved, reshaped; a section drawn for a waiter, changed, removed', async (t) => {
  const r = await restaurant();
  const plan = async () => (await r.commands.state(floor, FLOOR_STREAM)).state;
  const setup = { name: 'P1', spaceId: r.ids.space, status: 'available' as const, orderId: null };
  const { tableId } = await addTable(r.commands, { tableId: newId(), setup, plan: { place: { column: 0, row: 0 }, look: { shape: 'round', seats: 2 } }, context: {} });
  await moveTable(r.commands, { tableId, column: 3, row: 2, context: {} });
  await reshapeTable(r.commands, { tableId, shape: 'rectangle', seats: 6, context: {} });
  t.match((await plan()).tables[tableId], { column: 3, row: 2, shape: 'rectangle', seats: 6 });
  await t.rejects(moveTable(r.commands, { tableId: r.ids.t1, column: 3, row: 2, context: {} }), { kind: 'conflict' });

  await t.rejects(drawSection(r.commands, { sectionId: newId(), spaceId: r.ids.space, setup: { name: 'W', tableIds: [tableId], waiterId: newId() }, context: {} }), {
    kind: 'validation', details: { errors: [{ field: 'waiter_id' }] },
  }, 'the waiter must be on the staff');
  const { sectionId } = await drawSection(r.commands, { sectionId: newId(), spaceId: r.ids.space, setup: { name: 'Window', tableIds: [tableId], waiterId: r.ids.waiter }, context: {} });
  t.match((await plan()).sections[sectionId], { name: 'Window', tableIds: [tableId], waiterId: r.ids.waiter });
  await changeSection(r.commands, { sectionId, setup: { name: 'Window', tableIds: [tableId, r.ids.t1], waiterId: null }, ifMatch: 1, context: {} });
  t.match((await plan()).sections[sectionId], { tableIds: [tableId, r.ids.t1], waiterId: null, version: 2 });
  await removeSection(r.commands, { sectionId, context: {} });
  t.same((await plan()).sections, {});
});
