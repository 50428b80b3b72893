import { Client } from './http-client.js';

/** A restaurant ready for service over HTTP: a grill station (the default) and a bar, dishes, a table, a waiter. */
export async function kitchenRestaurant(url: string) {
  const admin = new Client(url);
  await admin.login('admin', '1234');
  const ok = (res: { status: number; body: unknown }, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown> & { id: string };
  };
  const grill = ok(await admin.post('/stations', { name: 'Grill' }), 201).id;
  const bar = ok(await admin.post('/stations', { name: 'Bar' }), 201).id;
  const category = ok(await admin.post('/categories', { name: 'Tacos' }), 201).id;
  const drinks = ok(await admin.post('/categories', { name: 'Bebidas', station_id: bar }), 201).id;
  const dish = async (name: string, price: number, category_id: string) =>
    (await admin.post('/dishes', { name, price, category_id })).headers.get('location')!.split('/').pop()!;
  const pastor = await dish('Taco al pastor', 25.5, category);
  const agua = await dish('Agua de horchata', 30, drinks);
  const space = ok(await admin.post('/spaces', { name: 'Terraza' }), 201).id;
  const table = ok(await admin.post('/tables', { name: 'T7', status: 'available', space_id: space, order_id: null }), 201).id;
  ok(await admin.post('/users', { name: 'Marisol', pin: '2580', role: 'waiter' }), 201);
  ok(await admin.post('/users', { name: 'Chef', pin: '3690', role: 'kitchen' }), 201);
  const waiter = new Client(url);
  await waiter.login('marisol', '2580');
  const waiterId = ok(await waiter.get('/auth/me'), 200).id;

  /** Places an order (on the table for the first one, take-away after) with a taco and a drink, and fires it. */
  let seated = false;
  const fireOrder = async (notes = 'sin cebolla') => {
    const tableId = seated ? null : table;
    seated = true;
    const orderId = ok(await waiter.post('/orders', { user_id: waiterId, table_id: tableId, waiter: 'Marisol' }), 201).id;
    ok(await waiter.post(`/orders/${orderId}/dishes`, [{ dish_id: pastor, notes }, { dish_id: agua }]), 201);
    const fired = ok(await waiter.post(`/orders/${orderId}/fire`), 200) as unknown as { tickets: Array<{ id: string; station_id: string }> };
    return { orderId, tickets: fired.tickets };
  };
  return { admin, waiter, grill, bar, pastor, agua, table, fireOrder };
}
