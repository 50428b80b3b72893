import t from 'tap';
import fc from 'fast-check';
import { type BillRate, type MenuEvent, billTaxes, fold, menu, paymentTaxes, splitEvenly, zReport, taxRateOf, ticket, type TicketEvent } from '../src/index.js';
import { given } from './given.js';

const MAINS = '22222222-2222-4222-8222-222222222222';
const TACOS = '44444444-4444-4444-8444-444444444444';
const IVA = '77777777-7777-4777-8777-777777777777';
const REDUCED = '88888888-8888-4888-8888-888888888888';

const ivaCreated: MenuEvent = { type: 'TaxRateCreated', data: { taxRateId: IVA, name: 'IVA', ratePpm: 160_000 } };
const reducedCreated: MenuEvent = { type: 'TaxRateCreated', data: { taxRateId: REDUCED, name: 'Reduced', ratePpm: 80_000 } };
const iva: BillRate = { taxRateId: IVA, name: 'IVA', ratePpm: 160_000 };
const reduced: BillRate = { taxRateId: REDUCED, name: 'Reduced', ratePpm: 80_000 };
const line = (lineId: string, priceCents: number, taxRateId: string | null, quantity = 1) => ({ lineId, dishId: 'd', priceCents, notes: '', quantity, taxRateId });

t.test('tax rates: created, changed, removed only while nothing names them; a dish takes its own or its category\'s', async (t) => {
  t.same(given(menu, []).when({ type: 'createTaxRate', taxRateId: IVA, name: 'IVA', ratePpm: 160_000 }), { events: [ivaCreated] });
  t.match(given(menu, [ivaCreated]).when({ type: 'createTaxRate', taxRateId: REDUCED, name: 'iva', ratePpm: 80_000 }), { error: { kind: 'conflict', message: 'A tax rate named IVA already exists' } });
  for (const ratePpm of [-1, 1_000_001, 88_750.5]) {
    t.match(given(menu, []).when({ type: 'createTaxRate', taxRateId: IVA, name: 'X', ratePpm }), { error: { kind: 'validation', details: { errors: [{ field: 'rate', message: 'must be a percent from 0 to 100 with at most four decimals' }] } } }, `${ratePpm} ppm`);
  }
  t.match(given(menu, []).when({ type: 'createTaxRate', taxRateId: IVA, name: 'Zero', ratePpm: 0 }), { events: [{ type: 'TaxRateCreated' }] }, '0 % is a rate');
  t.same(given(menu, [ivaCreated]).when({ type: 'changeTaxRate', taxRateId: IVA, name: 'IVA', ratePpm: 165_000, ifMatch: 1 }), { events: [{ type: 'TaxRateChanged', data: { taxRateId: IVA, name: 'IVA', ratePpm: 165_000 } }] });
  t.match(given(menu, [ivaCreated]).when({ type: 'changeTaxRate', taxRateId: IVA, name: 'IVA', ratePpm: 165_000, ifMatch: 2 }), { error: { kind: 'precondition' } });
  const categorised: MenuEvent[] = [ivaCreated, reducedCreated, { type: 'CategoryAdded', data: { categoryId: MAINS, name: 'Mains', taxRateId: IVA } }];
  t.match(given(menu, categorised).when({ type: 'removeTaxRate', taxRateId: IVA }), { error: { kind: 'conflict', details: { category_count: 1, dish_count: 0 } } });
  t.same(given(menu, categorised).when({ type: 'removeTaxRate', taxRateId: REDUCED }), { events: [{ type: 'TaxRateRemoved', data: { taxRateId: REDUCED } }] });
  t.match(given(menu, [ivaCreated]).when({ type: 'addCategory', categoryId: MAINS, name: 'Mains', taxRateId: REDUCED }), { error: { details: { errors: [{ field: 'tax_rate_id' }] } } });
  t.same(given(menu, categorised).when({ type: 'renameCategory', categoryId: MAINS, name: 'Mains', taxRateId: null }), { events: [{ type: 'CategoryTaxRateChanged', data: { categoryId: MAINS, taxRateId: null } }] });
  const withDish = [...categorised, { type: 'DishAdded', data: { dishId: TACOS, name: 'Tacos', price: 100, categoryId: MAINS } }] as MenuEvent[];
  t.equal(taxRateOf(fold(menu, withDish), TACOS)?.id, IVA, "the category's rate");
  const own = [...withDish, { type: 'DishUpdated', data: { dishId: TACOS, name: 'Tacos', price: 100, categoryId: MAINS, taxRateId: REDUCED } }] as MenuEvent[];
  t.equal(taxRateOf(fold(menu, own), TACOS)?.id, REDUCED, 'its own overrides it');
  t.same(given(menu, own).when({ type: 'updateDish', dishId: TACOS, name: 'Tacos', price: 100, categoryId: MAINS }), { events: [] }, 'a seed PUT keeps the rate');
  t.match(given(menu, own).when({ type: 'removeTaxRate', taxRateId: REDUCED }), { error: { details: { dish_count: 1 } } });
  t.equal(taxRateOf(fold(menu, [{ type: 'CategoryAdded', data: { categoryId: MAINS, name: 'M' } }, withDish[3]!]), TACOS), null, 'no rate: untaxed');
});

t.test('a bill\'s taxes per rate, inclusive and exclusive, rounded half up once per rate', async (t) => {
  const lines = [line('a', 1000, IVA, 2), line('b', 1160, IVA), line('c', 500, REDUCED), line('d', 300, null)];
  const inclusive = billTaxes({ lines, share: null, taxRates: [iva, reduced] });
  // IVA gross 3160: 3160 × 16 / 116 = 435.86… → 436; Reduced 500 × 8 / 108 = 37.03… → 37.
  t.same(inclusive, {
    taxes: [{ ...reduced, baseCents: 463, amountCents: 37 }, { ...iva, baseCents: 2724, amountCents: 436 }],
    dueCents: 3960, netCents: 463 + 2724 + 300,
  });
  const exclusive = billTaxes({ lines, share: null, taxRates: [iva, reduced], pricesIncludeTax: false });
  // IVA net 3160 × 16 / 100 = 505.6 → 506; Reduced 500 × 8 / 100 = 40.
  t.same(exclusive, { taxes: [{ ...reduced, baseCents: 500, amountCents: 40 }, { ...iva, baseCents: 3160, amountCents: 506 }], dueCents: 3960 + 546, netCents: 3960 });
  t.equal(billTaxes({ lines: [line('h', 25, IVA)], share: null, taxRates: [{ ...iva, ratePpm: 100_000 }], pricesIncludeTax: false }).taxes[0]!.amountCents, 3, '2.5 rounds half up');
  t.same(billTaxes({ lines, share: null }), { taxes: [], dueCents: 3960, netCents: 3960 }, 'a bill issued before taxes: nothing taxed');
  t.same(billTaxes({ lines, share: null, taxRates: [iva, reduced] }, new Set(['a'])).dueCents, 1960, 'voided lines leave');
  const shares = [1, 2, 3].map((part) => billTaxes({ lines, share: { part, parts: 3 }, taxRates: [iva, reduced] }));
  t.same(shares.map((s) => s.dueCents), [1320, 1320, 1320], 'IVA 3160, Reduced 500 and 300 untaxed: the odd cents go round the parts');
});

t.test('property: Σ of the tickets of a split = what the bill asks, each rate\'s share taxed as specified', async (t) => {
  const rate = fc.record({ taxRateId: fc.constantFrom(IVA, REDUCED), ratePpm: fc.integer({ min: 0, max: 1_000_000 }) });
  fc.assert(fc.property(
    fc.array(fc.record({ priceCents: fc.integer({ min: 1, max: 1_000_000 }), quantity: fc.integer({ min: 1, max: 99 }), rate: fc.option(fc.constantFrom(IVA, REDUCED)) }), { minLength: 1, maxLength: 30 }),
    fc.tuple(rate, rate), fc.integer({ min: 1, max: 12 }), fc.boolean(),
    (raw, [r1, r2], parts, inclusive) => {
      const taxRates = [{ ...r1, taxRateId: IVA, name: 'IVA' }, { ...r2, taxRateId: REDUCED, name: 'Reduced' }];
      const lines = raw.map((l, i) => line(`l${i}`, l.priceCents, l.rate, l.quantity));
      const gross = lines.reduce((s, l) => s + l.priceCents * l.quantity, 0);
      const tickets = Array.from({ length: parts }, (_, i) => billTaxes({ lines, share: parts > 1 ? { part: i + 1, parts } : null, taxRates, pricesIncludeTax: inclusive }));
      const net = tickets.reduce((s, b) => s + b.netCents, 0);
      const taxes = tickets.reduce((s, b) => s + b.taxes.reduce((x, y) => x + y.amountCents, 0), 0);
      const due = tickets.reduce((s, b) => s + b.dueCents, 0);
      const bill = billTaxes({ lines, share: null, taxRates, pricesIncludeTax: inclusive });
      if (inclusive && (due !== gross || net + taxes !== gross)) return false;
      // Exclusive: the shares add up to the whole bill's net + taxes, to the cent.
      if (!inclusive && (net !== gross || due !== bill.dueCents)) return false;
      // A whole bill is taxed as specified (half a cent at most); shares, in both modes, carry their
      // share of the bill's tax (issue 57), within two cents of their own amount × rate.
      const slack = parts === 1 ? 0.5 : 2;
      for (const b of tickets) {
        for (const x of b.taxes) {
          const exact = inclusive ? (x.baseCents + x.amountCents) * x.ratePpm / (1_000_000 + x.ratePpm) : x.baseCents * x.ratePpm / 1_000_000;
          if (Math.abs(x.amountCents - exact) > slack + 1e-9 || x.amountCents < 0 || x.baseCents < 0) return false;
        }
      }
      return true;
    },
  ), { numRuns: 300 });
  t.pass('nothing lost to rounding');
});

t.test('a void takes the line and its tax off the bill', async (t) => {
  const issue = {
    ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, issuedAt: 1, issuedBy: null,
    lines: [line('a', 1000, IVA), line('b', 1000, IVA)], taxRates: [iva], pricesIncludeTax: false, subtotalCents: 2320,
  };
  const issued: TicketEvent = { type: 'TicketIssued', data: issue };
  t.match(given(ticket, [issued]).when({ type: 'voidLine', lineId: 'a', reason: 'cold', refundId: 'r', shiftId: null, by: 'm', at: 2 }), {
    events: [{ type: 'TicketLineVoided', data: { lineId: 'a', amountCents: 1160 } }],
  });
});

t.test('property: the parts of an even split differ by at most a cent, first parts first, as splitEvenly of the whole', async (t) => {
  fc.assert(fc.property(
    fc.array(fc.record({ priceCents: fc.integer({ min: 1, max: 100_000 }), rate: fc.option(fc.constantFrom(IVA, REDUCED)) }), { minLength: 1, maxLength: 20 }),
    fc.integer({ min: 2, max: 12 }),
    (raw, parts) => {
      const lines = raw.map((l, i) => line(`l${i}`, l.priceCents, l.rate));
      const dues = Array.from({ length: parts }, (_, i) => billTaxes({ lines, share: { part: i + 1, parts }, taxRates: [{ ...iva, ratePpm: 0 }, { ...reduced, ratePpm: 0 }] }).dueCents);
      return JSON.stringify(dues) === JSON.stringify(splitEvenly(lines.reduce((s, l) => s + l.priceCents, 0), parts));
    },
  ), { numRuns: 300 });
  t.pass();
});

t.test('payments carry their bill\'s taxes cumulatively: the payments that settle a bill carry its taxes to the cent', async (t) => {
  const taxes = [{ ...iva, baseCents: 2724, amountCents: 436 }, { ...reduced, baseCents: 463, amountCents: 37 }];
  const split = [1000, 1000, 1960];
  let covered = 0;
  const each = split.map((amount) => {
    const x = paymentTaxes(taxes, 3960, covered, amount);
    covered += amount;
    return x.map((y) => y.amountCents);
  });
  t.same(each, [[110, 9], [110, 10], [216, 18]]);
  t.same([each.reduce((s, x) => s + x[0]!, 0), each.reduce((s, x) => s + x[1]!, 0)], [436, 37], 'to the cent');
  t.same(paymentTaxes(taxes, 3960, 3960, 500).map((x) => x.amountCents), [0, 0], 'beyond the bill: no tax');
  t.same(paymentTaxes(taxes, 0, 0, 0), []);
  const z = zReport({
    cashFloatCents: 0, countedCashCents: 0, openCents: 0, refunds: [],
    payments: [
      { id: 'p1', method: 'cash', amountCents: 1000, tipCents: 0, overpaidCents: 0, waiter: 'A', taxes: paymentTaxes(taxes, 3960, 0, 1000) },
      { id: 'p2', method: 'credit_card', amountCents: 2960, tipCents: 0, overpaidCents: 0, waiter: 'A', taxes: paymentTaxes(taxes, 3960, 1000, 2960) },
    ],
  });
  t.same(z.taxesByRate, [{ taxRateId: REDUCED, name: 'Reduced', ratePpm: 80_000, amountCents: 37 }, { taxRateId: IVA, name: 'IVA', ratePpm: 160_000, amountCents: 436 }]);
});

t.test('issue 57: the parts of an even split carry taxes that add up to the whole bill\'s, in both tax modes', async (t) => {
  // given a bill of 207.76 at IVA 16 % inclusive (tax 28.66), when it is split in three,
  // then the parts' taxes add up to 28.66 (taxing each part's 69.25 on its own gave 9.55 × 3 = 28.65)
  const lines = [line('a', 20_776, IVA)];
  t.equal(billTaxes({ lines, share: null, taxRates: [iva] }).taxes[0]!.amountCents, 2866);
  const parts = [1, 2, 3].map((part) => billTaxes({ lines, share: { part, parts: 3 }, taxRates: [iva] }));
  t.same(parts.map((p) => p.taxes[0]!.amountCents), [956, 955, 955]);
  t.same(parts.map((p) => p.dueCents), [6926, 6925, 6925], 'each part asks what splitEvenly gives it, as before');
  t.same(parts.map((p) => p.taxes[0]!.baseCents + p.taxes[0]!.amountCents), [6926, 6925, 6925]);
  fc.assert(fc.property(
    fc.array(fc.record({ price: fc.integer({ min: 0, max: 200_000 }), rate: fc.constantFrom(IVA, REDUCED, null) }), { minLength: 1, maxLength: 8 }),
    fc.integer({ min: 2, max: 12 }), fc.boolean(), fc.integer({ min: 0, max: 1_000_000 }),
    (priced, n, inclusive, ppm) => {
      const ls = priced.map((p, i) => line(`l${i}`, p.price, p.rate));
      const taxRates = [{ ...iva, ratePpm: ppm }, reduced];
      const whole = billTaxes({ lines: ls, share: null, taxRates, pricesIncludeTax: inclusive });
      const shares = Array.from({ length: n }, (_, i) => billTaxes({ lines: ls, share: { part: i + 1, parts: n }, taxRates, pricesIncludeTax: inclusive }));
      for (const x of whole.taxes) {
        const of = (s: typeof whole) => s.taxes.find((y) => y.taxRateId === x.taxRateId) ?? { baseCents: 0, amountCents: 0 };
        if (shares.reduce((sum, s) => sum + of(s).amountCents, 0) !== x.amountCents) return false;
        if (shares.reduce((sum, s) => sum + of(s).baseCents, 0) !== x.baseCents) return false;
      }
      const dues = shares.map((s) => s.dueCents);
      return dues.reduce((a, b) => a + b, 0) === whole.dueCents && Math.max(...dues) - Math.min(...dues) <= 1;
    },
  ), { numRuns: 300, seed: 57 });
});
