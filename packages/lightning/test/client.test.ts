import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeClient, NodeError } from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  auth: string;
  body: string;
}

/** A node that answers like phoenixd: Basic auth, text and JSON answers, its error texts. */
async function fakeNode(t: { teardown(fn: () => unknown): void }, handle: (req: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, auth: req.headers.authorization ?? '', body };
      seen.push(s);
      if (s.auth !== `Basic ${Buffer.from(':pw').toString('base64')}`) {
        res.writeHead(401).end('Invalid authentication (use basic auth with the http password set in phoenix.conf)');
        return;
      }
      handle(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, value: unknown) => res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(value));

t.test('Basic auth with an empty user, form bodies, JSON answers', async (t) => {
  const node = await fakeNode(t, (req, res) => json(res, { amountSat: 10, paymentHash: 'ab'.repeat(32), serialized: 'lnbcrt1...' }));
  const client = new NodeClient({ url: `${node.url}/`, password: 'pw' });
  const invoice = await client.createInvoice({ description: 'Mesa 4', amountSat: 10, externalId: 'o-1' });
  t.equal(invoice.paymentHash, 'ab'.repeat(32));
  t.equal(node.seen[0]!.method, 'POST');
  t.equal(node.seen[0]!.url, '/createinvoice');
  t.same(Object.fromEntries(new URLSearchParams(node.seen[0]!.body)), { description: 'Mesa 4', amountSat: '10', externalId: 'o-1' });
});

t.test('GET lists send their parameters in the query string', async (t) => {
  const node = await fakeNode(t, (_req, res) => json(res, []));
  const client = new NodeClient({ url: node.url, password: 'pw' });
  t.same(await client.listIncoming({ limit: 5, all: true, externalId: 'x' }), []);
  t.equal(node.seen[0]!.url, '/payments/incoming?limit=5&all=true&externalId=x');
});

t.test('plain-text answers: transaction ids, and refusals answered as 200 text', async (t) => {
  const txid = 'cd'.repeat(32);
  const node = await fakeNode(t, (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.body.includes('amountSat=1') ? txid : 'Invalid address'));
  const client = new NodeClient({ url: node.url, password: 'pw' });
  t.equal(await client.sendToAddress({ amountSat: 1, address: 'bcrt1q', feerateSatByte: 2 }), txid);
  const error = await client.sendToAddress({ amountSat: 2, address: 'x', feerateSatByte: 2 }).catch((e) => e);
  t.ok(error instanceof NodeError);
  t.match(error, { kind: 'rejected', status: 200, text: 'Invalid address' });
});

t.test('payment failures (200 with a reason) are payment_failed', async (t) => {
  const node = await fakeNode(t, (_req, res) => json(res, { paymentHash: 'ef'.repeat(32), reason: 'this invoice has already been paid' }));
  const client = new NodeClient({ url: node.url, password: 'pw' });
  const error = await client.payInvoice({ invoice: 'lnbc' }).catch((e) => e);
  t.match(error, { kind: 'payment_failed', status: 200, text: 'this invoice has already been paid', paymentHash: 'ef'.repeat(32) });
});

t.test('wrong password is unauthorized, 4xx rejected with the node text', async (t) => {
  const node = await fakeNode(t, (_req, res) => res.writeHead(400).end('Request parameter invoice is missing'));
  const wrong = await new NodeClient({ url: node.url, password: 'nope' }).getInfo().catch((e) => e);
  t.match(wrong, { kind: 'unauthorized', status: 401 });
  const bad = await new NodeClient({ url: node.url, password: 'pw' }).payInvoice({ invoice: '' }).catch((e) => e);
  t.match(bad, { kind: 'rejected', status: 400, text: 'Request parameter invoice is missing' });
});

t.test('closed port is unreachable; a silent node is a timeout', async (t) => {
  const node = await fakeNode(t, () => {});
  const closed = await new NodeClient({ url: 'http://127.0.0.1:1', password: 'pw' }).getInfo().catch((e) => e);
  t.match(closed, { kind: 'unreachable', status: 0 });
  const silent = await new NodeClient({ url: node.url, password: 'pw', timeoutMs: 100 }).getInfo().catch((e) => e);
  t.match(silent, { kind: 'timeout', status: 0 });
});

t.test('real-node variations: estimateliquidityfees as GET, export reading the query', async (t) => {
  const node = await fakeNode(t, (req, res) => {
    if (req.url.startsWith('/estimateliquidityfees')) {
      if (req.method !== 'POST') return void res.writeHead(405).end('Invalid http method (use the correct GET/POST)');
      return json(res, { miningFeeSat: 600, serviceFeeSat: 10000 });
    }
    res.writeHead(200).end(`payment history has been exported to /x (${req.url})`);
  });
  const client = new NodeClient({ url: node.url, password: 'pw' });
  t.same(await client.estimateLiquidityFees(1_000_000), { miningFeeSat: 600, serviceFeeSat: 10000 }, 'falls back to POST when GET is refused');
  t.same(node.seen.map((s) => s.method), ['GET', 'POST']);
  t.match(await client.export({ from: 5, to: 9 }), '/export?from=5&to=9');
  t.equal(node.seen[2]!.body, 'from=5&to=9', 'and the form, for the seed');
});
