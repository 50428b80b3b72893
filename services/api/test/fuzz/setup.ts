import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Test } from 'tap';
import { ADMIN, cookieHeader, testApp } from '../harness.js';
import { clientOf, simNetwork } from '../wallet-helpers.js';
import { setUpRestaurant } from '../restaurant.js';
import { type Schema, resolveRefs } from './generate.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;
export type Parameter = { in: string; name: string; required?: boolean; schema: Schema };
export type Operation = { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }>; security?: unknown[] };
export type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
type Answer = { statusCode: number; body: string; json(): unknown };

/**
 * The fuzzers' target: an app on a simulated Lightning network with a restaurant set up, its admin
 * signed in with the wallet unlocked (so every route is reached past its guard), known ids, the served
 * document, and the check every answer must pass: below 500, a status the document lists for that
 * operation, and a body matching the schema listed there.
 */
export async function fuzzTarget(t: Test) {
  const { restaurant } = await simNetwork(t);
  const h = await testApp({}, {}, undefined, { node: clientOf(restaurant) });
  t.teardown(h.close);
  const signIn = async () => {
    const cookie = await h.login(ADMIN.name, ADMIN.pin);
    const wallet = await h.app.inject({ method: 'POST', url: '/wallet/auth', headers: { cookie }, payload: { password: ADMIN.walletPassword } });
    if (wallet.statusCode !== 200) throw new Error(`wallet auth: ${wallet.statusCode}`);
    return `${cookie}; ${cookieHeader(wallet.cookies)}`;
  };
  const admin = await signIn();
  const r = await setUpRestaurant(h.app, admin);
  const me = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: admin } })).json().id as string;
  // A second admin to be renamed, demoted or deleted by the fuzz; the fuzzer's own account stays out of reach.
  const target = await h.app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload: { name: 'target', pin: '1111', role: 'admin' } });
  const order = await h.app.inject({ method: 'POST', url: '/orders/with-dishes', headers: { cookie: admin }, payload: { order: { user_id: me, table_id: null, waiter: 'F' }, dishes: [{ dish_id: r.dishes.pastor }] } });
  const ids = [r.category, r.dishes.pastor, r.space, r.tables.t1, target.json().id as string, order.json().id as string, '00000000-0000-4000-8000-000000000000'];
  const doc = (await h.app.inject({ method: 'GET', url: '/swagger/json' })).json() as Document;
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  const statuses = new Map<string, number>();

  /** Checks one answer; false (with a failure recorded) when it breaks the document's promise. */
  const check = (t: Test, op: Operation, what: string, res: Answer, sent: Record<string, unknown>): boolean => {
    const status = String(res.statusCode);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const documented = op.responses[status] ?? op.responses.default;
    if (res.statusCode >= 500 || !documented) {
      t.fail(`${what}: ${res.statusCode} ${documented ? '' : 'is not documented'}`, { ...sent, body: res.body.slice(0, 500) });
      return false;
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema || res.statusCode === 204) return true;
    let body: unknown;
    try {
      body = res.json();
    } catch {
      t.fail(`${what}: ${status} body is not JSON`, { body: res.body.slice(0, 300) });
      return false;
    }
    const validate = ajv.compile(resolveRefs(schema, doc) as Schema);
    if (validate(body)) return true;
    t.fail(`${what}: ${status} body does not match the document`, { ...sent, body: JSON.stringify(body).slice(0, 500), errors: validate.errors?.slice(0, 3) });
    return false;
  };
  return { h, signIn, admin, me, ids, doc, check, statuses };
}

/** Every operation of the document, with its path and method. */
export const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

/** encodeURIComponent, except that a lone surrogate is sent as its raw (invalid) UTF-8 escape. */
export const encode = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return v.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%A-Za-z0-9]/g, (ch) => encodeURIComponent(ch));
  }
};
