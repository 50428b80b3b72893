import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bech32 } from '@scure/base';
import { ManualClock, startNetwork, type NetworkConfig, type SimNetwork, type SimNode } from '../src/index.js';

export const START = Date.UTC(2025, 0, 15, 12, 0, 0);

/** The part of a tap test the helpers use. */
interface Scope {
  teardown(fn: () => unknown): void;
}

export interface Harness {
  net: SimNetwork;
  clock: ManualClock;
  restaurant: SimNode;
  customer: SimNode;
}

/** The default two-node network in deterministic mode, on free loopback ports, closed after the test. */
export async function harness(t: Scope, config: NetworkConfig = {}): Promise<Harness> {
  const clock = new ManualClock(START);
  const net = await startNetwork({
    seed: 'test',
    clock,
    webhook: { attempts: 3, initialDelayMs: 20, timeoutMs: 2000 },
    nodes: [
      { name: 'restaurant', channel: { balanceSat: 50_000, inboundLiquiditySat: 2_000_000 } },
      { name: 'customer', channel: { balanceSat: 1_000_000, inboundLiquiditySat: 1_000_000 } },
    ],
    ...config,
  });
  t.teardown(() => net.close());
  return { net, clock, restaurant: net.nodes[0], customer: net.nodes[1] };
}

export interface Reply {
  status: number;
  contentType: string;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Calls the node API over HTTP: GET with query, POST with a url-encoded form; full password by default. */
export async function call(node: SimNode, method: string, path: string, fields: Record<string, string | number> = {}, password: string | null = node.password): Promise<Reply> {
  const form = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const url = method === 'GET' && form.size > 0 ? `${node.url}${path}?${form}` : `${node.url}${path}`;
  const headers: Record<string, string> = password === null ? {} : { authorization: `Basic ${Buffer.from(`:${password}`).toString('base64')}` };
  const response = await fetch(url, { method, headers, body: method === 'GET' ? undefined : form });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}

export async function invoiceOf(node: SimNode, fields: Record<string, string | number>): Promise<{ paymentHash: string; serialized: string; amountSat?: number }> {
  const reply = await call(node, 'POST', '/createinvoice', fields);
  if (reply.status !== 200) throw new Error(`createinvoice: ${reply.status} ${reply.text}`);
  return reply.json;
}

/** A valid regtest P2WPKH address. */
export const REGTEST_ADDRESS = bech32.encode('bcrt', [0, ...bech32.toWords(new Uint8Array(20).fill(7))]);

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on a free loopback port; `failFirst` answers 500 to that many requests first. */
export async function webhookReceiver(t: Scope, failFirst = 0): Promise<{ url: string; received: Received[]; next(): Promise<Received> }> {
  const received: Received[] = [];
  let waiters: (() => void)[] = [];
  let cursor = 0;
  let failures = failFirst;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        res.writeHead(500).end();
        return;
      }
      received.push({ headers: req.headers, body });
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    next: () =>
      new Promise((resolve) => {
        const index = cursor++;
        const check = (): void => {
          if (received[index]) resolve(received[index]);
          else waiters.push(check);
        };
        check();
      }),
  };
}
