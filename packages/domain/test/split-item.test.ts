import t from 'tap';
import fc from 'fast-check';
import { billTaxes, billedLineCents, order, ticket, type OrderEvent, type TicketIssue, type TicketLine } from '../src/index.js';
import { given } from './given.js';

// Issue 59: one item split between checks (a bottle of wine over three): each check carries its even
// share of the item; the shares add up to the item to the cent, and each check is taxed as a bill.

const placed: OrderEvent[] = [
  { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1 } },
  { type: 'DishesAdded', data: { lines: [{ lineId: 'wine', dishId: 'd1', priceCents: 4501, notes: '' }, { lineId: 'steak', dishId: 'd2', priceCents: 32000, notes: '' }] } },
];

t.test('given an order, when its checks share a line: one bill of three checks, the groups recorded', async (t) => {
  const bill = { billId: 'b1', ticketIds: ['k1', 'k2', 'k3'], lineIds: ['wine', 'steak'], groups: [['wine', 'steak'], ['wine'], ['wine']] };
  t.same(given(order, placed).when({ type: 'billLines', bills: [bill] }), { events: [{ type: 'OrderBilled', data: bill }] });
  const after = given(order, [...placed, { type: 'OrderBilled', data: bill }]);
  t.same(after.state.billing.billedLines, { wine: 'b1', steak: 'b1' }, 'both lines billed until every check is cancelled');
  t.same(after.state.billing.bills.b1!.groups, bill.groups);
  const cancelled = given(order, [...placed, { type: 'OrderBilled', data: bill }, { type: 'OrderTicketCancelled', data: { billId: 'b1', ticketId: 'k1', releasedLineIds: [] } }]);
  t.same(cancelled.when({ type: 'releaseTicket', ticketId: 'k2' }), { events: [{ type: 'OrderTicketCancelled', data: { billId: 'b1', ticketId: 'k2', releasedLineIds: [] } }] }, 'a line shared by checks still live stays billed');
});

t.test('when the checks do not carry the lines billed, or one is empty, or names a line twice: 400, nothing written', async (t) => {
  const bill = (groups: string[][], lineIds = ['wine', 'steak']) => ({ type: 'billLines' as const, bills: [{ billId: 'b1', ticketIds: groups.map((_, i) => `k${i}`), lineIds, groups }] });
  t.match(given(order, placed).when(bill([['wine'], ['wine']])), { error: { kind: 'validation', message: 'Validation failed' } }, 'steak billed but on no check');
  t.match(given(order, placed).when(bill([['wine', 'steak'], []])), { error: { kind: 'validation' } });
  t.match(given(order, placed).when(bill([['wine', 'wine'], ['wine', 'steak']])), { error: { kind: 'validation' } });
  t.match(given(order, placed).when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1'], lineIds: ['wine'], groups: [['wine'], ['wine']] }] }), { error: { kind: 'validation' } }, 'a group per check');
});

const wine = (part: number, parts = 3): TicketLine => ({ lineId: 'wine', dishId: 'd1', priceCents: 4501, notes: '', taxRateId: 'iva', share: { part, parts } });
const rates = [{ taxRateId: 'iva', name: 'IVA', ratePpm: 160_000 }];

t.test('the shares of an item add up to it to the cent, after its discount, whatever the price and parts (property)', async (t) => {
  t.same([1, 2, 3].map((p) => billedLineCents(wine(p))), [1501, 1500, 1500], 'the first check carries the odd cent, as an even split does');
  t.equal(billedLineCents({ ...wine(1, 2), discountCents: 501, quantity: 2 }), 4251, '2 × 45.01 − 5.01 over two: 42.51 each');
  fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 20 }), (price, quantity, parts) => {
    const whole = price * quantity;
    const discountCents = Math.floor(whole / 3);
    const shares = Array.from({ length: parts }, (_, i) => billedLineCents({ priceCents: price, quantity, discountCents, share: { part: i + 1, parts } }));
    return shares.reduce((a, b) => a + b, 0) === whole - discountCents && Math.max(...shares) - Math.min(...shares) <= 1;
  }), { numRuns: 500 });
});

t.test('each check is taxed on what it asks, once per rate, in both tax modes', async (t) => {
  const inclusive = billTaxes({ lines: [wine(1)], share: null, taxRates: rates, pricesIncludeTax: true });
  t.same(inclusive, { taxes: [{ taxRateId: 'iva', name: 'IVA', ratePpm: 160_000, baseCents: 1294, amountCents: 207 }], dueCents: 1501, netCents: 1294 }, '15.01 incl. 16 %: 2.07 tax');
  const exclusive = billTaxes({ lines: [wine(2)], share: null, taxRates: rates, pricesIncludeTax: false });
  t.same(exclusive.dueCents, 1740, '15.00 + 16 % = 17.40');
});

t.test('given a check with a shared item, a void of it is refused (cancel the checks and bill again); its other lines void as usual', async (t) => {
  const issue: TicketIssue = {
    ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: 't1', waiter: 'Ana', currencyId: 'mxn',
    lines: [wine(1), { lineId: 'steak', dishId: 'd2', priceCents: 32000, notes: '' }], share: null, subtotalCents: 33501, issuedAt: 1, issuedBy: 'u1',
  };
  const g = given(ticket, [{ type: 'TicketIssued', data: issue }]);
  const voidOf = (lineId: string) => ({ type: 'voidLine' as const, lineId, reason: 'spilt', refundId: 'r1', shiftId: 's1', by: 'm1', at: 2 });
  t.same(g.when(voidOf('wine')), { error: { kind: 'conflict', message: 'An item split between checks cannot be voided on one of them; cancel the checks and bill again' } });
  t.match(g.when(voidOf('steak')), { events: [{ type: 'TicketLineVoided', data: { lineId: 'steak', amountCents: 32000 } }] });
});
