import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, LocalClock, OrderBook, ReportFold, RunningReport, ownParts, sharedParts } from '../src/index.js';
import { TZ, restaurantNight } from './restaurant-day.js';

let position = 0n;
const event = (stream: string, type: string, data: unknown): RecordedEvent =>
  ({ id: `e${++position}`, stream, revision: 0, position, type, data, metadata: {}, recordedAt: 0 });

t.test('a shared book applies an event once: every later call answers what the first did', async (t) => {
  const book = sharedParts().orderBook();
  book.apply(event('order-A', 'OrderPlaced', { orderId: 'A', userId: 'u1', waiter: 'Ana', tableId: null }));
  book.apply(event('order-A', 'DishesAdded', { lines: [{ lineId: 'l1', dishId: 'd1', priceCents: 1000 }, { lineId: 'l2', dishId: 'd2', priceCents: 250 }] }));
  const removed = event('order-A', 'OrderLineRemoved', { lineId: 'l2' });
  const first = book.apply(removed);
  t.equal(book.apply(removed), first, 'the second report is given the same order');
  t.equal(first!.totalCents, 1000, 'the line was taken off once');

  const completed = event('order-A', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: 5 });
  const closed = book.close(completed);
  t.same(closed && { to: closed.to, at: closed.at, total: closed.order.totalCents }, { to: 'completed', at: 5, total: 1000 });
  t.equal(book.close(completed), closed, 'every report sharing the book sees the order it closed');
  t.equal(book.get('A'), undefined, 'and the book has forgotten it');
  t.equal(book.close(event('order-A', 'OrderStatusChanged', { from: 'completed', to: 'completed', at: 6 })), undefined, 'a later event is applied afresh');

  book.apply(event('order-B', 'OrderPlaced', { orderId: 'B', userId: 'u1', waiter: 'Ana', tableId: 't1' }));
  const deleted = event('order-B', 'OrderDeleted', {});
  const gone = book.apply(deleted);
  t.equal(gone?.tableId, 't1', 'a deleted order as it was');
  t.equal(book.apply(deleted), gone, 'to every report');
});

t.test('the parts: one book for a fold, one per report folded on its own', async (t) => {
  const shared = sharedParts();
  t.equal(shared.orderBook(), shared.orderBook());
  t.not(ownParts.orderBook(), ownParts.orderBook());
  const used = new OrderBook();
  used.apply(event('order-C', 'OrderPlaced', { orderId: 'C', userId: 'u1', waiter: 'Ana', tableId: null }));
  t.same(Object.keys(used), ['orders'], 'what a checkpoint saves of a book: its orders, never the last event it saw');
});

t.test('reports sharing one book give what each gives folded alone', async (t) => {
  const night = restaurantNight();
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(night);
  const clock = new LocalClock(TZ);
  for (const definition of ALL_REPORTS) {
    const alone = new RunningReport(definition, clock, ownParts);
    for (const e of night) if (definition.handles.includes(e.type)) definition.apply(alone.state, e);
    alone.position = fold.position;
    t.same(fold.report(definition.name)!.result({}), alone.result({}), definition.name);
  }
});
