import t from 'tap';
import { kitchenService } from './kitchen-harness.js';

type TicketLine = { line_id: string; dish_name: string; quantity: number; course: number; seat: number | null; modifiers: string[]; allergens: string[] };

/** Courses and seats over HTTP: starters fired, then mains; kitchen tickets say how many, which course, which seat. */
async function dinner() {
  const s = await kitchenService();
  await s.asAdmin('POST', '/stations', { name: 'Grill' });
  const placed = await s.asWaiter('POST', '/orders/with-dishes', {
    order: { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' },
    dishes: [
      { dish_id: s.r.dishes.agua, quantity: 2 },
      { dish_id: s.r.dishes.pastor, quantity: 3, course: 2, seat: 1 },
      { dish_id: s.r.dishes.suadero, course: 2, seat: 2, notes: 'sin cebolla' },
      { dish_id: s.r.dishes.agua, course: 3 },
    ],
  });
  const id = placed.body.id as string;
  const lines = (await s.asWaiter('GET', `/orders/${id}/dishes`)).body as Array<{ id: string; kitchen_status: string }>;
  return { s, id, lines };
}

t.test('fire {course: n} sends only that course; {} and no body send every unfired line as today', async (t) => {
  const { s, id, lines } = await dinner();
  t.teardown(s.close);
  const starters = await s.asWaiter('POST', `/orders/${id}/fire`, { course: 1 });
  t.equal(starters.status, 200);
  t.same(starters.body.tickets.flatMap((k: { line_ids: string[] }) => k.line_ids), [lines[0]!.id]);
  t.same((await s.asWaiter('GET', `/orders/${id}/dishes`)).body.map((l: { kitchen_status: string }) => l.kitchen_status), ['sent', 'pending', 'pending', 'pending']);
  const again = await s.asWaiter('POST', `/orders/${id}/fire`, { course: 1 });
  t.same([again.status, again.body.tickets], [200, []], 'starters are out: nothing left of course 1');
  const mains = await s.asWaiter('POST', `/orders/${id}/fire`, { course: 2 });
  t.same(mains.body.tickets.flatMap((k: { line_ids: string[] }) => k.line_ids).sort(), [lines[1]!.id, lines[2]!.id].sort());
  const board = (await s.asKitchen('GET', '/kitchen/tickets')).body as Array<{ lines: TicketLine[] }>;
  const onBoard = board.flatMap((k) => k.lines).map((l) => [l.dish_name, l.quantity, l.course, l.seat, l.modifiers, l.allergens]);
  t.same(onBoard, [
    ['Agua de jamaica', 2, 1, null, [], []],
    ['Taco al pastor', 3, 2, 1, [], []],
    ['Taco de suadero', 1, 2, 2, [], []],
  ]);
  const rest = await s.asWaiter('POST', `/orders/${id}/fire`, {});
  t.same(rest.body.tickets.flatMap((k: { line_ids: string[] }) => k.line_ids), [lines[3]!.id], '{}: every unfired line');
});

t.test('fire: a course out of range or lines and a course together are 400; a course with nothing answers 200 with no tickets', async (t) => {
  const { s, id, lines } = await dinner();
  t.teardown(s.close);
  for (const course of [0, 10, 1.5, '1']) t.equal((await s.asWaiter('POST', `/orders/${id}/fire`, { course })).status, 400, `course ${JSON.stringify(course)}`);
  const both = await s.asWaiter('POST', `/orders/${id}/fire`, { course: 1, line_ids: [lines[0]!.id] });
  t.match(both, { status: 400, body: { errors: [{ field: 'course', message: 'name lines or a course, not both' }] } });
  t.same((await s.asWaiter('POST', `/orders/${id}/fire`, { course: 9 })).body.tickets, []);
  t.equal((await s.asWaiter('POST', `/orders/${id}/fire`)).body.tickets.flatMap((k: { line_ids: string[] }) => k.line_ids).length, 4, 'no body: all of them, as today');
});
