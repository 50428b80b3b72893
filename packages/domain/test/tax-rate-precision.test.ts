import t from 'tap';
import { type MenuEvent, type TicketEvent, billTaxes, fold, menu, percentOf, ratePpmOfPercent, ticket, zReport } from '../src/index.js';
import { given } from './given.js';

const NYC = '77777777-7777-4777-8777-777777777777';

t.test('issue 57: a rate keeps four decimals of a percent (New York City 8.875 %)', async (t) => {
  // given no rate, when 8.875 % is created, then it is recorded exactly, in parts per million
  t.same(given(menu, []).when({ type: 'createTaxRate', taxRateId: NYC, name: 'NYC', ratePpm: 88_750 }), {
    events: [{ type: 'TaxRateCreated', data: { taxRateId: NYC, name: 'NYC', ratePpm: 88_750 } }],
  });
  t.same(ratePpmOfPercent(8.875), 88_750);
  t.same(ratePpmOfPercent(12.3456), 123_456);
  t.same(ratePpmOfPercent(0.1 + 0.2), 3_000, 'a double a few units off a whole millionth is that millionth');
  t.same(ratePpmOfPercent(8.87501), null, 'five decimals');
  t.same(ratePpmOfPercent(Number.NaN), null);
  t.same(percentOf(88_750), 8.875);
  // 30.00 × 8.875 % = 2.6625 → 2.66 added; inclusive: 30.00 × 8.875 / 108.875 = 2.4454… → 2.45.
  const lines = [{ lineId: 'a', dishId: 'd', priceCents: 3000, notes: '', quantity: 1, taxRateId: NYC }];
  const rate = { taxRateId: NYC, name: 'NYC', ratePpm: 88_750 };
  t.same(billTaxes({ lines, share: null, taxRates: [rate], pricesIncludeTax: false }).taxes, [{ ...rate, baseCents: 3000, amountCents: 266 }]);
  t.same(billTaxes({ lines, share: null, taxRates: [rate] }).taxes, [{ ...rate, baseCents: 2755, amountCents: 245 }]);
});

t.test('issue 57: events written in basis points before it are read as they were', async (t) => {
  // given a rate created in basis points (16.5 %) and a ticket issued with it, then changed in ppm
  const legacy = [{ type: 'TaxRateCreated', data: { taxRateId: NYC, name: 'IVA', rateBp: 1650 } }] as MenuEvent[];
  t.same(fold(menu, legacy).taxRates[NYC], { id: NYC, name: 'IVA', ratePpm: 165_000, version: 1 });
  t.same(given(menu, legacy).when({ type: 'changeTaxRate', taxRateId: NYC, name: 'IVA', ratePpm: 165_000 }), { events: [] }, 'the same rate, however written: no change');
  const issue = {
    ticketId: 'k', orderId: 'o', billId: 'b', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, issuedAt: 1, issuedBy: null,
    lines: [{ lineId: 'a', dishId: 'd', priceCents: 11_650, notes: '', quantity: 1, taxRateId: NYC }], subtotalCents: 11_650,
    taxRates: [{ taxRateId: NYC, name: 'IVA', rateBp: 1650 }],
  };
  const issued = fold(ticket, [{ type: 'TicketIssued', data: issue }] as TicketEvent[]);
  t.same(billTaxes(issued.issue!).taxes, [{ taxRateId: NYC, name: 'IVA', ratePpm: 165_000, baseCents: 10_000, amountCents: 1650 }]);
  const z = zReport({
    cashFloatCents: 0, countedCashCents: 0, openCents: 0, refunds: [],
    payments: [{ id: 'p', method: 'cash', amountCents: 11_650, tipCents: 0, overpaidCents: 0, waiter: 'Ana', taxes: [{ taxRateId: NYC, name: 'IVA', rateBp: 1650, amountCents: 1650 }] }],
  });
  t.same(z.taxesByRate, [{ taxRateId: NYC, name: 'IVA', ratePpm: 165_000, amountCents: 1650 }], "a shift's payments recorded in basis points");
});
