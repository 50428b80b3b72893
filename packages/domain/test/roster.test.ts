import t from 'tap';
import { type StaffEvent, roster } from '../src/index.js';
import { given } from './given.js';

const created = (userId: string, name: string, role: 'admin' | 'manager' | 'waiter' | 'kitchen'): StaffEvent => ({
  type: 'UserCreated', data: { userId, name, role, pinHash: `pin-${userId}`, createdAt: 1 },
});
const ana = created('a', 'Ana', 'admin');
const beto = created('b', 'Beto', 'waiter');

t.test('staff are created with unique names, ignoring case', async (t) => {
  t.same(given(roster, []).when({ type: 'createUser', userId: 'b', name: 'Beto', role: 'waiter', pinHash: 'pin-b', at: 1 }), { events: [beto] });
  t.same(given(roster, [beto]).when({ type: 'createUser', userId: 'c', name: 'BETO', role: 'kitchen', pinHash: 'x', at: 2 }), {
    error: { kind: 'conflict', message: 'A user named BETO already exists' },
  });
});

t.test('the first admin is created once: a populated roster ignores the bootstrap', async (t) => {
  const bootstrap = { type: 'bootstrapAdmin' as const, userId: 'a', name: 'Ana', pinHash: 'pin-a', walletPasswordHash: 'w', at: 1 };
  t.same(given(roster, []).when(bootstrap), { events: [ana, { type: 'WalletPasswordSet', data: { userId: 'a', passwordHash: 'w' } }] });
  t.same(given(roster, [ana]).when({ ...bootstrap, userId: 'z' }), { events: [] });
});

t.test('a rename carries the PIN hashed again; a PIN change alone; a role change', async (t) => {
  const g = given(roster, [ana, beto]);
  t.same(g.when({ type: 'updateUser', userId: 'b', rename: { name: 'Roberto', pinHash: 'p2' } }), { events: [{ type: 'UserRenamed', data: { userId: 'b', name: 'Roberto', pinHash: 'p2' } }] });
  t.same(g.when({ type: 'updateUser', userId: 'b', pinHash: 'p3' }), { events: [{ type: 'UserPinChanged', data: { userId: 'b', pinHash: 'p3' } }] });
  t.same(g.when({ type: 'updateUser', userId: 'b', role: 'manager' }), { events: [{ type: 'UserRoleChanged', data: { userId: 'b', role: 'manager' } }] });
  t.same(g.when({ type: 'updateUser', userId: 'b', role: 'waiter' }), { events: [] }, 'the same role changes nothing');
  t.match(g.when({ type: 'updateUser', userId: 'b', rename: { name: 'ana', pinHash: 'p' } }), { error: { kind: 'conflict' } }, 'a taken name');
  t.match(g.when({ type: 'updateUser', userId: 'zz', pinHash: 'p' }), { error: { kind: 'not_found' } });
});

t.test('If-Match: a member of staff is changed only at the version the client saw', async (t) => {
  const renamed: StaffEvent = { type: 'UserRenamed', data: { userId: 'b', name: 'Roberto', pinHash: 'p2' } };
  const g = given(roster, [ana, beto, renamed]);
  t.equal(g.state.members.b!.version, 2, 'every change moves the version on');
  t.match(g.when({ type: 'updateUser', userId: 'b', pinHash: 'p', ifMatch: 1 }), { error: { kind: 'precondition' } });
  t.match(g.when({ type: 'updateUser', userId: 'b', pinHash: 'p', ifMatch: 2 }), { events: [{ type: 'UserPinChanged' }] });
});

t.test('the last admin cannot be demoted or deleted; another admin can', async (t) => {
  t.same(given(roster, [ana, beto]).when({ type: 'updateUser', userId: 'a', role: 'manager' }), { error: { kind: 'conflict', message: 'The last admin cannot be demoted' } });
  t.same(given(roster, [ana, beto]).when({ type: 'deleteUser', userId: 'a' }), { error: { kind: 'conflict', message: 'The last admin cannot be deleted' } });
  const carla = created('c', 'Carla', 'admin');
  t.same(given(roster, [ana, carla]).when({ type: 'deleteUser', userId: 'a' }), { events: [{ type: 'UserDeleted', data: { userId: 'a' } }] });
  t.same(given(roster, [ana, beto]).when({ type: 'deleteUser', userId: 'b' }), { events: [{ type: 'UserDeleted', data: { userId: 'b' } }] });
  t.same(given(roster, [ana, beto, { type: 'UserDeleted', data: { userId: 'b' } }]).state.members, given(roster, [ana]).state.members, 'a deleted member is gone');
});

t.test('only an admin has a wallet password', async (t) => {
  t.same(given(roster, [ana, beto]).when({ type: 'setWalletPassword', userId: 'a', passwordHash: 'w2' }), { events: [{ type: 'WalletPasswordSet', data: { userId: 'a', passwordHash: 'w2' } }] });
  t.same(given(roster, [ana, beto]).when({ type: 'setWalletPassword', userId: 'b', passwordHash: 'w2' }), { error: { kind: 'conflict', message: 'Only an admin has a wallet password' } });
});
