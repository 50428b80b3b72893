import t from 'tap';
import { STAFF_STREAM, newId, order, orderStream, ownAuthority, session, sessionStream } from '@comanda/domain';
import { addStaff, addTable, changeStaff, placeOrder, removeStaff, revokeSession, setUpTable } from '../src/index.js';
import { restaurant } from './restaurant.js';

const hashPin = async (pin: string, name: string) => `hash(${pin},${name})`;

t.test('a table is set up with an order only while that order is open', async (t) => {
  const r = await restaurant();
  const setup = (orderId: string | null) => ({ name: 'T9', spaceId: r.ids.space, status: 'occupied' as const, orderId });
  await t.rejects(addTable(r.commands, { tableId: newId(), setup: setup(newId()), context: {} }), {
    kind: 'validation', details: { errors: [{ field: 'order_id', message: 'must reference an existing order that is not completed or cancelled' }] },
  });
  const { orderId } = await placeOrder(r.commands, { orderId: newId(), userId: r.ids.waiter, tableId: null, waiter: 'Beto', dishes: [], lineId: String, at: 1, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} });
  const tableId = newId();
  const added = await addTable(r.commands, { tableId, setup: setup(orderId), context: {} });
  t.equal(added.tableId, tableId);
  t.match(await r.table(tableId), { orderId, status: 'occupied' });
});

t.test('setting up a table: its holder blocks it while open, not once finished', async (t) => {
  const r = await restaurant();
  const { orderId } = await placeOrder(r.commands, { orderId: newId(), userId: r.ids.waiter, tableId: r.ids.t1, waiter: 'Beto', dishes: [], lineId: String, at: 1, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} });
  const afresh = { name: 'T1', spaceId: r.ids.space, status: 'available' as const, orderId: null };
  await t.rejects(setUpTable(r.commands, { tableId: r.ids.t1, setup: afresh, context: {} }), { kind: 'conflict', details: { order_id: orderId } });
  // The order ends but its table is still held (say a crash before the release): the table's stream is told it finished.
  await r.commands.handle(order, orderStream(orderId), { type: 'updateOrder', userId: r.ids.waiter, tableId: r.ids.t1, waiter: 'Beto', status: 'cancelled', at: 2, authority: ownAuthority(r.ids.waiter, 'waiter') });
  t.match(await r.table(r.ids.t1), { orderId });
  const from = await r.mark();
  await setUpTable(r.commands, { tableId: r.ids.t1, setup: afresh, context: {} });
  t.match(await r.table(r.ids.t1), { orderId: null, status: 'available' });
  t.ok((await r.seatings(from)).length > 0);
});

t.test('managers manage staff but never admins; admins manage everyone', async (t) => {
  const r = await restaurant();
  const manager = { actorRole: 'manager' as const, context: {} };
  await t.rejects(addStaff(r.commands, hashPin, { ...manager, userId: newId(), name: 'Dora', pin: '1234', role: 'admin', at: 5 }), { kind: 'forbidden' });
  await t.rejects(changeStaff(r.commands, hashPin, { ...manager, userId: r.ids.admin, pin: '9999' }), { kind: 'forbidden' });
  await t.rejects(changeStaff(r.commands, hashPin, { ...manager, userId: r.ids.waiter, role: 'admin' }), { kind: 'forbidden' });
  await t.rejects(removeStaff(r.commands, { ...manager, userId: r.ids.admin }), { kind: 'forbidden' });
  const from = (await r.store.readStream(STAFF_STREAM)).length;
  const { userId } = await addStaff(r.commands, hashPin, { ...manager, userId: newId(), name: ' Dora ', pin: '1234', role: 'waiter', at: 5 });
  await changeStaff(r.commands, hashPin, { actorRole: 'admin', context: {}, userId, role: 'manager' });
  await removeStaff(r.commands, { ...manager, userId: r.ids.waiter });
  t.same(await r.appended(STAFF_STREAM, from), [
    { type: 'UserCreated', data: { userId, name: 'Dora', role: 'waiter', pinHash: 'hash(1234,Dora)', createdAt: 5 } },
    { type: 'UserRoleChanged', data: { userId, role: 'manager' } },
    { type: 'UserDeleted', data: { userId: r.ids.waiter } },
  ]);
});

t.test('a rename needs the PIN again (the name salts it); unknown staff is 404', async (t) => {
  const r = await restaurant();
  const admin = { actorRole: 'admin' as const, context: {} };
  await t.rejects(changeStaff(r.commands, hashPin, { ...admin, userId: r.ids.waiter, name: 'Roberto' }), {
    kind: 'validation', details: { errors: [{ field: 'pin', message: 'is required to rename a user (the name is part of the PIN salt)' }] },
  });
  const from = (await r.store.readStream(STAFF_STREAM)).length;
  await changeStaff(r.commands, hashPin, { ...admin, userId: r.ids.waiter, name: 'Roberto', pin: '4321' });
  await changeStaff(r.commands, hashPin, { ...admin, userId: r.ids.waiter, pin: '5555' });
  t.same(await r.appended(STAFF_STREAM, from), [
    { type: 'UserRenamed', data: { userId: r.ids.waiter, name: 'Roberto', pinHash: 'hash(4321,Roberto)' } },
    { type: 'UserPinChanged', data: { userId: r.ids.waiter, pinHash: 'hash(5555,Roberto)' } },
  ]);
  await t.rejects(removeStaff(r.commands, { ...admin, userId: newId() }), { kind: 'not_found' });
});

t.test("a manager ends a waiter's device session, with who and why, but never an admin's", async (t) => {
  const r = await restaurant();
  const signIn = async (userId: string) => {
    const sid = newId();
    await r.commands.handle(session, sessionStream(sid), { type: 'startSession', sessionId: sid, userId, expiresAt: 10_000, device: 'Tablet 3', at: 1 });
    return sid;
  };
  const byManager = { by: r.ids.manager, actorRole: 'manager' as const, why: 'tablet lost', at: 5, context: {} };
  await t.rejects(revokeSession(r.commands, { ...byManager, sessionId: newId() }), { kind: 'not_found' }, 'no such session');
  const admins = await signIn(r.ids.admin);
  await t.rejects(revokeSession(r.commands, { ...byManager, sessionId: admins }), { kind: 'forbidden' }, "an admin's session is an admin's to end");
  t.same(await r.appended(sessionStream(admins), 1), []);
  await revokeSession(r.commands, { ...byManager, by: r.ids.admin, actorRole: 'admin', sessionId: admins });
  const waiters = await signIn(r.ids.waiter);
  await revokeSession(r.commands, { ...byManager, sessionId: waiters });
  t.same(await r.appended(sessionStream(waiters), 1), [{ type: 'SessionRevoked', data: { reason: 'revoked', userId: r.ids.waiter, device: 'Tablet 3', by: r.ids.manager, why: 'tablet lost', at: 5 } }]);
});
