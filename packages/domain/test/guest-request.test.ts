import t from 'tap';
import { type GuestRequestEvent, guestRequest } from '../src/index.js';
import { given } from './given.js';

const R = '11111111-1111-4111-8111-111111111111';
const TABLE = '22222222-2222-4222-8222-222222222222';
const ORDER = '33333333-3333-4333-8333-333333333333';
const lines = [{ dishId: '44444444-4444-4444-8444-444444444444', quantity: 2, notes: 'sin cebolla' }];
const asked: GuestRequestEvent = { type: 'GuestDishesRequested', data: { requestId: R, tableId: TABLE, lines, at: 1 } };
const accepted: GuestRequestEvent = { type: 'GuestRequestAccepted', data: { requestId: R, tableId: TABLE, orderId: ORDER, by: 'u1', at: 2 } };
const declined: GuestRequestEvent = { type: 'GuestRequestDeclined', data: { requestId: R, tableId: TABLE, by: 'u1', reason: 'kitchen closed', at: 2 } };

t.test('a guest asks for dishes once: a retry of the same request records nothing more', async (t) => {
  t.same(given(guestRequest, []).when({ type: 'requestDishes', requestId: R, tableId: TABLE, lines, at: 1 }), { events: [asked] });
  t.same(given(guestRequest, [asked]).when({ type: 'requestDishes', requestId: R, tableId: TABLE, lines, at: 5 }), { events: [] });
  t.match(given(guestRequest, [asked]).state, { status: 'open', tableId: TABLE, lines });
});

t.test('the waiter accepts or declines an open request, once, with a name', async (t) => {
  t.same(given(guestRequest, [asked]).when({ type: 'acceptRequest', orderId: ORDER, by: 'u1', at: 2 }), { events: [accepted] });
  t.same(given(guestRequest, [asked]).when({ type: 'declineRequest', by: 'u1', reason: 'kitchen closed', at: 2 }), { events: [declined] });
  t.same(given(guestRequest, [asked, accepted]).when({ type: 'acceptRequest', orderId: ORDER, by: 'u2', at: 3 }), { events: [] }, 'accepted again onto the same order: a retried tap');
  t.same(given(guestRequest, [asked, declined]).when({ type: 'declineRequest', by: 'u1', reason: 'again', at: 3 }), { events: [] });
  t.same(given(guestRequest, [asked, accepted]).when({ type: 'declineRequest', by: 'u2', reason: 'no', at: 3 }), { error: { kind: 'conflict', message: 'This request was already accepted' } });
  t.same(given(guestRequest, [asked, declined]).when({ type: 'acceptRequest', orderId: ORDER, by: 'u2', at: 3 }), { error: { kind: 'conflict', message: 'This request was already declined' } });
  t.same(given(guestRequest, []).when({ type: 'acceptRequest', orderId: ORDER, by: 'u1', at: 2 }), { error: { kind: 'not_found', message: 'Resource not found' } });
  t.match(given(guestRequest, [asked, accepted]).state, { status: 'accepted', orderId: ORDER, by: 'u1' });
});
