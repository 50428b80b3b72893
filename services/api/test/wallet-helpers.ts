import { bech32 } from '@scure/base';
import { NodeClient } from '@comanda/lightning';
import { startNetwork, type SimNetwork, type SimNode } from '@comanda/node-sim';
import { cookieHeader, testApp } from './harness.js';

/** The part of a tap test the helpers use. */
interface Scope {
  teardown(fn: () => unknown): void;
}

/** A valid regtest P2WPKH address. */
export const REGTEST_ADDRESS = bech32.encode('bcrt', [0, ...bech32.toWords(new Uint8Array(20).fill(7))]);

/** Two simulated nodes on free loopback ports: the restaurant's (poor) and a customer's (rich). */
export async function simNetwork(t: Scope): Promise<{ net: SimNetwork; restaurant: SimNode; customer: SimNode }> {
  const net = await startNetwork({
    seed: 'wallet-test',
    blockIntervalMs: 0,
    nodes: [
      { name: 'restaurant', port: 0, channel: { balanceSat: 50_000, inboundLiquiditySat: 2_000_000 } },
      { name: 'customer', port: 0, channel: { balanceSat: 1_000_000, inboundLiquiditySat: 1_000_000 } },
    ],
  });
  t.teardown(() => net.close());
  return { net, restaurant: net.node('restaurant'), customer: net.node('customer') };
}

export const clientOf = (node: SimNode, password = node.password) => new NodeClient({ url: node.url, password, timeoutMs: 2000 });

/** A wallet API on memory adapters in front of `node`, with helpers to call it as a role. */
export async function walletApp(t: Scope, node: NodeClient | undefined) {
  const h = await testApp({}, {}, undefined, node ? { node } : {});
  t.teardown(h.close);
  const call = (cookie: string) => async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({
      method: method as 'GET', url, headers: { cookie, ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { cookie, 'content-type': 'application/json', ...headers } }),
    });
    let body: unknown;
    try {
      body = res.body ? res.json() : undefined;
    } catch {
      body = res.body;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.statusCode, body: body as any, headers: res.headers, cookies: res.cookies };
  };
  /** The admin's access cookie plus a fresh walletAccessToken. */
  const unlocked = async () => {
    const admin = await h.login('admin', '1234');
    const res = await call(admin)('POST', '/wallet/auth', { password: 'wallet-pass' });
    if (res.status !== 200) throw new Error(`wallet auth failed: ${res.status}`);
    return `${admin}; ${cookieHeader(res.cookies)}`;
  };
  return { ...h, call, unlocked };
}

/** Calls a simulated node directly (the customer's wallet app): POST form, full password. */
export async function atSim(node: SimNode, path: string, fields: Record<string, string | number>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${node.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`:${node.password}`).toString('base64')}` },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  });
  return { status: res.status, text: await res.text() };
}
