import t from 'tap';
import { MENU_STREAM, menu } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { MENU_CLOCK, MENU_CLOCK_ID, type MenuClockView, allProjections } from '../src/index.js';

// Issue 60: given a menu with hours and a price level in the log, when the projections read it (twice,
// as a projector restarting before its checkpoint would), then the kept fold is the decider's own.

t.test("the menu's fold kept as a read model equals the command handler's", async (t) => {
  const log = new MemoryEventStore();
  const commands = new CommandHandler(log);
  const run = (command: Parameters<typeof menu.decide>[0]) => commands.handle(menu, MENU_STREAM, command);
  await run({ type: 'addCategory', categoryId: 'c1', name: 'Tacos' });
  await run({ type: 'addDish', dishId: 'd1', name: 'Pastor', price: 2550, categoryId: 'c1' });
  await run({ type: 'addDish', dishId: 'd2', name: 'Agua', price: 1500, categoryId: 'c1' });
  await run({ type: 'setDishAvailability', dishId: 'd1', windows: [{ days: ['mon'], from: '12:00', to: '16:00' }], by: null });
  await run({ type: 'setPriceLevel', priceLevelId: 'l1', create: true, name: 'Happy hour', windows: [{ days: ['mon'], from: '17:00', to: '19:00' }], prices: [{ dishId: 'd2', priceCents: 1000 }], by: null });
  await run({ type: 'removeDish', dishId: 'd2' });

  const store = new MemoryReadStore();
  for (let i = 0; i < 2; i++) for (const e of log.readAfter(null, 1_000)) for (const p of allProjections.filter((p) => p.handles.includes(e.type))) await p.apply(e, store);
  const kept = await store.collection<MenuClockView>(MENU_CLOCK).get(MENU_CLOCK_ID);
  const { state, revision } = await commands.state(menu, MENU_STREAM);
  t.same(kept?.state, state, 'the same fold: hours, the level without the deleted dish');
  t.equal(kept?.events, revision + 1, 'each event counted once');
});
