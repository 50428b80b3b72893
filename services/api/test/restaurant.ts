import type { FastifyInstance } from 'fastify';

/** Builds a small menu and floor through the HTTP API, as a manager would before service. */
export async function setUpRestaurant(app: FastifyInstance, cookie: string) {
  const post = async (url: string, payload: unknown) => {
    const res = await app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as object });
    if (res.statusCode !== 201) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
    return res;
  };
  const category = (await post('/categories', { name: 'Tacos' })).json().id as string;
  const dish = async (name: string, price: number) => (await post('/dishes', { name, price, category_id: category })).headers.location!.split('/').pop()!;
  const pastor = await dish('Taco al pastor', 25.5);
  const suadero = await dish('Taco de suadero', 22);
  const agua = await dish('Agua de jamaica', 30);
  const space = (await post('/spaces', { name: 'Terraza' })).json().id as string;
  const table = async (name: string) => (await post('/tables', { name, status: 'available', space_id: space, order_id: null })).json().id as string;
  return { category, dishes: { pastor, suadero, agua }, space, tables: { t1: await table('T1'), t2: await table('T2'), t3: await table('T3') } };
}
