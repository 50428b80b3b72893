import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { UNMATCHED_PAYMENTS, unmatchedPaymentsProjection, type UnmatchedPaymentView } from '../src/index.js';

const TICKET = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const hash = (n: number) => String(n).repeat(64).slice(0, 64);

const at = (position: number, stream: string, type: string, data: unknown): RecordedEvent =>
  ({ id: `e${position}`, stream, revision: 0, position: BigInt(position), type, data, metadata: {}, recordedAt: 0 }) as RecordedEvent;

t.test('the manager list: unmatched payments, flagged order payments and flagged ticket payments, each once', async (t) => {
  const store = new MemoryReadStore();
  const events = [
    at(1, `unmatchedpayment-${hash(1)}`, 'UnmatchedPaymentReceived', { paymentHash: hash(1), amountSat: 100, externalId: null, payerNote: 'hi', payerKey: null, receivedAt: 10 }),
    at(2, `order-${ORDER}`, 'OrderPaymentReceived', { paymentHash: hash(2), amountSat: 200, receivedAt: 20, flag: 'order_completed' }),
    at(3, `order-${ORDER}`, 'OrderPaymentReceived', { paymentHash: hash(3), amountSat: 300, receivedAt: 30 }),
    at(5, `unmatchedpayment-${hash(5)}`, 'UnmatchedPaymentReceived', { paymentHash: hash(5), amountSat: 500, externalId: 'table 4', payerNote: null, payerKey: null, receivedAt: 50 }),
    at(4, `ticket-${TICKET}`, 'LightningPaymentFlagged', { paymentHash: hash(4), amountSat: 400, reason: 'ticket_already_paid', receivedAt: 40 }),
  ];
  for (const e of [...events, events[4]!]) await unmatchedPaymentsProjection.apply(e, store);
  const docs = await store.collection<UnmatchedPaymentView>(UNMATCHED_PAYMENTS).find({}, { sort: { received_at: 1 } });
  t.same(docs.map((d) => [d.payment_hash, d.reason, d.order_id, d.ticket_id ?? null]), [
    [hash(1), 'no_reference', null, null],
    [hash(2), 'order_completed', ORDER, null],
    [hash(4), 'ticket_already_paid', null, TICKET],
    [hash(5), 'unknown_reference', null, null],
  ], 'an unflagged order payment is not listed; a re-delivered event changes nothing');
});
