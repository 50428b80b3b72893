import t from 'tap';
import { MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, LiveReports, type ReportDefinition } from '../src/index.js';
import { salesReport } from '../src/reports/sales.js';
import { TZ, restaurantNight } from './restaurant-day.js';

async function write(store: MemoryEventStore, events: RecordedEvent[]) {
  const revisions = new Map<string, number>();
  for (const e of events) {
    const expected = revisions.has(e.stream) ? revisions.get(e.stream)! : 'any';
    await store.append(e.stream, [{ id: crypto.randomUUID(), type: e.type, data: e.data, metadata: e.metadata }], expected);
    revisions.set(e.stream, e.revision);
  }
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('live reports fold the log from position 0, then follow it', async (t) => {
  const store = new MemoryEventStore();
  const night = restaurantNight();
  const split = night.findIndex((e) => e.stream === 'order-C');
  await write(store, night.slice(0, split));
  const live = new LiveReports(store, ALL_REPORTS, TZ);
  await live.start();
  t.equal(live.state, 'live');
  t.equal(live.get('cancellations')!.result({}).sections.by_reason!.filter((r) => r.kind === 'order_cancelled').length, 0);
  await write(store, night.slice(split));
  await until(() => live.position() === BigInt(night.length));
  t.same(live.get('cancellations')!.result({}).sections.by_reason![0], { kind: 'order_cancelled', reason: '(no reason recorded)', count: 1, amount: 25 });
  t.same(live.get('sales')!.result({}).sections.totals![0]!.net, 360);
  t.equal(live.get('nope'), undefined);
  await live.stop();
});

t.test('a new version is rebuilt from 0 beside the old one and swapped when caught up', async (t) => {
  const store = new MemoryEventStore();
  await write(store, restaurantNight());
  const live = new LiveReports(store, ALL_REPORTS, TZ);
  await live.start();
  // The next version counts a void as the refund it gave, among refunds (a changed definition of net).
  const v2: ReportDefinition<unknown> = {
    ...(salesReport as ReportDefinition<unknown>),
    version: salesReport.version + 1,
    apply(state, event) {
      if (event.type === 'TicketLineVoided') return;
      if (event.type === 'PaymentRefunded' && (event.data as { reason: string }).reason.startsWith('void: ')) {
        salesReport.apply(state as never, { ...event, data: { ...(event.data as object), reason: 'counted in v2' } });
        return;
      }
      salesReport.apply(state as never, event);
    },
  };
  const swapped = live.install(v2);
  t.equal(live.get('sales')!.definition.version, salesReport.version, 'the old version serves while the new one builds');
  await swapped;
  const sales = live.get('sales')!.result({});
  t.equal(sales.version, v2.version);
  t.equal(sales.sections.totals![0]!.refunds, 55);
  t.equal(sales.position, String(restaurantNight().length));
  // And it keeps following the log with the others.
  await write(store, [{ ...restaurantNight().find((e) => e.type === 'PaymentRefunded' && (e.data as { reason: string }).reason === 'cold food')!, stream: 'ticket-TB2', revision: 0 }]);
  await until(() => live.position() === BigInt(restaurantNight().length + 1));
  t.equal(live.get('sales')!.result({}).sections.totals![0]!.refunds, 85);
  await live.stop();
});
