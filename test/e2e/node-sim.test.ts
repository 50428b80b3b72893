import t from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { verifyWebhookSignature } from '@comanda/lightning';

// Starts the simulator as `npm run node-sim` starts it (node services/node-sim/dist/main.js) and talks
// to it over HTTP only.

const root = fileURLToPath(new URL('../..', import.meta.url));
const main = `${root}services/node-sim/dist/main.js`;

interface ReadyNode {
  name: string;
  url: string;
  password: string;
  limitedPassword: string;
  webhookSecret: string;
}

// Incremental: a no-op when turbo has already built it, a build when run on its own.
function build(): void {
  execFileSync('npx', ['tsc', '-b', 'services/node-sim'], { cwd: root, stdio: 'inherit' });
  if (!existsSync(main)) throw new Error(`${main} was not built`);
}

async function startSimulator(t: Tap, env: Record<string, string>): Promise<{ child: ChildProcess; nodes: ReadyNode[] }> {
  build();
  const child = spawn(process.execPath, [main], { cwd: root, env: { ...process.env, NODE_SIM_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const nodes = await new Promise<ReadyNode[]>((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const line = /^NODE_SIM_READY (.+)$/m.exec(output);
      if (line) resolve((JSON.parse(line[1]) as { nodes: ReadyNode[] }).nodes);
    });
    child.once('exit', (code) => reject(new Error(`node-sim exited with ${code}: ${output}`)));
  });
  return { child, nodes };
}

type Tap = { teardown(fn: () => unknown): void };

function api(node: ReadyNode, password = node.password) {
  const auth = `Basic ${Buffer.from(`:${password}`).toString('base64')}`;
  return async (method: string, path: string, fields: Record<string, string | number> = {}) => {
    const form = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
    const response = await fetch(method === 'GET' ? `${node.url}${path}?${form}` : `${node.url}${path}`, { method, headers: { authorization: auth }, body: method === 'GET' ? undefined : form });
    const text = await response.text();
    return { status: response.status, text, json: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined };
  };
}

t.test('node-sim as a process: the customer pays the restaurant, webhook and websocket see it', async (t) => {
  const hooks: { body: string; signature: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hooks.push({ body, signature: String(req.headers['x-node-signature']) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => receiver.close());
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;

  const { child, nodes } = await startSimulator(t, {
    NODE_SIM_SEED: 'e2e',
    NODE_SIM_RESTAURANT_PORT: '0',
    NODE_SIM_CUSTOMER_PORT: '0',
    NODE_SIM_RESTAURANT_WEBHOOK_URLS: hookUrl,
    NODE_SIM_RESTAURANT_WEBHOOK_SECRET: 'e2e-secret',
    NODE_SIM_CUSTOMER_PASSWORD: 'customer-password',
  });
  const restaurant = nodes.find((n) => n.name === 'restaurant')!;
  const customer = nodes.find((n) => n.name === 'customer')!;
  t.equal(customer.password, 'customer-password', 'password from the environment');
  t.match(restaurant.password, /^[0-9a-f]{64}$/, 'generated password');
  t.equal(restaurant.webhookSecret, 'e2e-secret');

  const ws = new WebSocket(`${restaurant.url.replace('http', 'ws')}/websocket`, [restaurant.password]);
  const event = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  t.teardown(() => ws.close());

  const r = api(restaurant);
  const c = api(customer);
  t.match((await r('GET', '/getinfo')).json, { chain: 'regtest', channels: [{ state: 'Normal' }] });
  const invoice = (await r('POST', '/createinvoice', { description: 'Mesa 9', amountSat: 4_200, externalId: 'order-9' })).json;
  const paid = (await c('POST', '/payinvoice', { invoice: invoice.serialized })).json;
  t.match(paid, { recipientAmountSat: 4_200, routingFeeSat: 20, paymentHash: invoice.paymentHash });
  t.match(await event, { type: 'payment_received', amountSat: 4_200, paymentHash: invoice.paymentHash, externalId: 'order-9' });
  t.match((await r('GET', `/payments/incoming/${invoice.paymentHash}`)).json, { isPaid: true, receivedSat: 4_200 });
  t.equal((await api(restaurant, restaurant.limitedPassword)('POST', '/payinvoice', { invoice: invoice.serialized })).status, 401);

  for (let i = 0; i < 50 && hooks.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(hooks.length, 1);
  t.ok(verifyWebhookSignature(hooks[0].body, 'e2e-secret', hooks[0].signature));
  t.match(JSON.parse(hooks[0].body), { type: 'payment_received', externalId: 'order-9', payerNote: null });

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'stops cleanly on SIGTERM');
});

t.test('bad configuration stops the process with one clear line', async (t) => {
  build();
  const child = spawn(process.execPath, [main], { cwd: root, env: { ...process.env, NODE_SIM_RESTAURANT_PORT: 'abc' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 1);
  t.equal(stderr.trim(), 'node-sim: NODE_SIM_RESTAURANT_PORT: expected a non-negative integer, got "abc"');
});
