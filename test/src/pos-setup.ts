import { Client } from './http-client.js';

const ok = <T = Record<string, unknown> & { id: string }>(res: { status: number; body: unknown }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
};

/**
 * A restaurant set up over HTTP as its owner would before the first service: taxes, a kitchen and a
 * bar, a menu with a required and an optional modifier group, two spaces of tables, and the staff
 * (two waiters, a manager, a cook). PINs are the test's own.
 */
export async function posRestaurant(url: string) {
  const admin = new Client(url);
  await admin.login('admin', '1234');
  const iva = ok(await admin.post('/tax-rates', { name: 'IVA', rate: 16 }), 201, 'IVA').id;
  const kitchen = ok(await admin.post('/stations', { name: 'Cocina' }), 201, 'kitchen').id;
  const bar = ok(await admin.post('/stations', { name: 'Barra' }), 201, 'bar').id;
  const entradas = ok(await admin.post('/categories', { name: 'Entradas', station_id: kitchen, tax_rate_id: iva }), 201, 'entradas').id;
  const fuertes = ok(await admin.post('/categories', { name: 'Platos fuertes', station_id: kitchen, tax_rate_id: iva }), 201, 'fuertes').id;
  const bebidas = ok(await admin.post('/categories', { name: 'Bebidas', station_id: bar, tax_rate_id: iva }), 201, 'bebidas').id;
  const term = ok<{ id: string; option_ids: string[] }>(await admin.post('/modifier-groups', {
    name: 'Término', min_choices: 1, max_choices: 1, options: [{ name: 'Medio', price_delta: 0 }, { name: 'Tres cuartos', price_delta: 0 }, { name: 'Bien cocido', price_delta: 0 }],
  }), 201, 'term');
  const extras = ok<{ id: string; option_ids: string[] }>(await admin.post('/modifier-groups', {
    name: 'Extras', min_choices: 0, max_choices: 2, options: [{ name: 'Guacamole', price_delta: 35 }, { name: 'Queso', price_delta: 20 }],
  }), 201, 'extras');
  const dish = async (name: string, price: number, category: string, more: Record<string, unknown> = {}) =>
    (await admin.post('/dishes', { name, price, category_id: category, ...more })).headers.get('location')!.split('/').pop()!;
  const menu = {
    guacamole: await dish('Guacamole', 120, entradas, { allergens: [] }),
    sopa: await dish('Sopa de lima', 95, entradas),
    arrachera: await dish('Arrachera', 260, fuertes, { modifier_group_ids: [term.id, extras.id] }),
    mole: await dish('Mole poblano', 185, fuertes, { allergens: ['nuts', 'sesame'] }),
    tacos: await dish('Tacos al pastor', 110, fuertes, { modifier_group_ids: [extras.id] }),
    agua: await dish('Agua de horchata', 35, bebidas, { allergens: ['milk'] }),
    cerveza: await dish('Cerveza', 55, bebidas),
  };
  const salon = ok(await admin.post('/spaces', { name: 'Salón' }), 201, 'salón').id;
  const terraza = ok(await admin.post('/spaces', { name: 'Terraza' }), 201, 'terraza').id;
  const tables: Record<string, string> = {};
  for (const [name, space] of [['S1', salon], ['S2', salon], ['S3', salon], ['S4', salon], ['S5', salon], ['S6', salon], ['T1', terraza], ['T2', terraza]] as const) {
    tables[name] = ok(await admin.post('/tables', { name, status: 'available', space_id: space, order_id: null }), 201, name).id;
  }
  ok(await admin.put(`/tables/${tables.S6}`, { name: 'S6', status: 'reserved', space_id: salon, order_id: null }), 200, 'reserve S6');
  const staff = {
    marisol: { name: 'Marisol', pin: '2580', role: 'waiter' },
    tomas: { name: 'Tomás', pin: '1470', role: 'waiter' },
    lupita: { name: 'Lupita', pin: '1357', role: 'manager' },
    chef: { name: 'Chef', pin: '3690', role: 'kitchen' },
  };
  for (const s of Object.values(staff)) ok(await admin.post('/users', s), 201, s.name);
  return { admin, menu, tables, term: term.option_ids, extras: extras.option_ids, staff, stations: { kitchen, bar } };
}

/** The waiter of the order at a table, as the API says (who holds it after two tablets seated it). */
export async function waiterAtTable(client: Client, tableId: string): Promise<string> {
  const table = ((await client.get('/tables')).body as Array<{ id: string; order_id: string | null }>).find((x) => x.id === tableId);
  return ((await client.get(`/orders/${table?.order_id}`)).body as { waiter: string }).waiter;
}

/** The payments on an order's first bill, as [method, amount]: what was taken, and how often. */
export async function paymentsOn(client: Client, orderId: string): Promise<Array<[string, number]>> {
  const [bill] = (await client.get(`/orders/${orderId}/tickets`)).body as Array<{ payments: Array<{ method: string; amount: number }> }>;
  return (bill?.payments ?? []).map((p) => [p.method, p.amount]);
}

/** The ids of a waiter's open orders (pending, preparing, ready), sorted: every one made, none twice. */
export async function openOrdersOf(client: Client, waiter: string): Promise<string[]> {
  const open: string[] = [];
  for (const status of ['pending', 'preparing', 'ready']) {
    const listed = (await client.get(`/orders/status/${status}?all=true`)).body as Array<{ id: string; waiter: string }> | undefined;
    for (const o of listed ?? []) if (o.waiter === waiter) open.push(o.id);
  }
  return open.sort();
}

/**
 * Before a cut: Marisol (signed in over HTTP) has a table with `quantity` × `dishId` and its bill
 * issued, and the till is open: a bill a tablet can take cash on while offline.
 */
export async function billBeforeTheCut(url: string, r: Awaited<ReturnType<typeof posRestaurant>>, tableId: string, dishId: string) {
  const marisol = new Client(url);
  await marisol.login('marisol', '2580');
  const me = ok<{ id: string }>(await marisol.get('/auth/me'), 200, 'me');
  const billed = ok(await marisol.post('/orders/with-dishes', { order: { user_id: me.id, table_id: tableId, waiter: 'Marisol' }, dishes: [{ dish_id: dishId, quantity: 2 }] }), 201, 'order').id;
  ok(await marisol.post(`/orders/${billed}/tickets`, { split: 'none' }), 201, 'bill');
  ok(await r.admin.post('/shifts/open', { cash_float: 100 }), 201, 'till');
  const [bill] = ok<Array<{ id: string; due: number }>>(await marisol.get(`/orders/${billed}/tickets`), 200, 'bills');
  return { marisol, billed, bill: bill! };
}
