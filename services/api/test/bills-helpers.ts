import { testApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

export type Role = 'admin' | 'manager' | 'waiter' | 'kitchen';

/** A restaurant with staff of every role and a helper per role that answers {status, body, headers}. */
export async function billsService(env: Record<string, string> = {}, extraDeps: Parameters<typeof testApp>[3] = {}) {
  const h = await testApp(env, {}, undefined, extraDeps);
  const admin = await h.as('admin');
  const r = await setUpRestaurant(h.app, admin);
  const cookies: Record<Role, string> = { admin, manager: await h.as('manager'), waiter: await h.as('waiter'), kitchen: await h.as('kitchen') };
  const waiterId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: cookies.waiter } })).json().id as string;
  const as = (role: Role) => async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({ method, url, headers: { cookie: cookies[role], ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const json = res.headers['content-type']?.toString().startsWith('application/json');
    return { status: res.statusCode, body: res.body && json ? res.json() : res.body, headers: res.headers };
  };
  const waiter = as('waiter');
  const manager = as('manager');
  /** An order at table T1 with the dishes given by name (pastor 25.50, suadero 22.00, agua 30.00). */
  const orderWith = async (dishes: Array<'pastor' | 'suadero' | 'agua'>, table: 't1' | 't2' | 't3' | null = 't1', waiterName = 'Marisol') => {
    const res = await waiter('POST', '/orders/with-dishes', {
      order: { user_id: waiterId, table_id: table ? r.tables[table] : null, waiter: waiterName },
      dishes: dishes.map((d) => ({ dish_id: r.dishes[d] })),
    });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    const lines = (await waiter('GET', `/orders/${res.body.id}/dishes`)).body as Array<{ id: string; price_at_order: number }>;
    return { id: res.body.id as string, lines: lines.map((l) => l.id) };
  };
  /** Moves an order through the kitchen to completed (or as far as `to`). */
  const finish = async (orderId: string, table: string | null, to = 'completed', waiterName = 'Marisol') => {
    let last = { status: 0, body: undefined as unknown };
    const path = ['pending', 'preparing', 'ready', 'completed'];
    const now = (await waiter('GET', `/orders/${orderId}`)).body.status as string;
    for (const status of path.slice(path.indexOf(now) + 1)) {
      last = await waiter('PUT', `/orders/${orderId}`, { user_id: waiterId, table_id: table, waiter: waiterName, status });
      if (status === to || last.status !== 200) break;
    }
    return last;
  };
  return { ...h, r, cookies, finish, waiterId, as, waiter, manager, admin: as('admin'), kitchen: as('kitchen'), orderWith };
}
