import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { ResponseTurn, type WaitingWrite, deferWrites, sendResponsesPerTurn } from '../src/http/responses-per-turn.js';
import { testApp } from './harness.js';

const listen = (server: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** Everything the peer receives until it sees the end. */
const readAll = (socket: Socket) => new Promise<string>((resolve) => {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('end', () => resolve(text));
});

/** A turn whose end the test makes: the waiting calls are collected, in order. */
const heldTurn = (calls: WaitingWrite[]) => ({ later: (_socket: Socket, write: WaitingWrite) => void calls.push(write), now: () => {} });

/** A loopback connection: the server's end (accepted) and the client's. */
async function connection(t: Test) {
  const tcp = createTcpServer();
  const accepted = new Promise<Socket>((resolve) => tcp.once('connection', resolve));
  const port = await listen(tcp);
  t.teardown(() => tcp.close());
  const client = connect(port, '127.0.0.1');
  return { client, socket: await accepted };
}

/** A connection whose server end defers its writes to a turn of its own, and what its client receives. */
async function deferredConnection(t: Test) {
  const { client, socket } = await connection(t);
  client.on('error', () => {});
  deferWrites(socket, new ResponseTurn());
  return { socket, received: readAll(client) };
}

t.test('a deferred socket sends nothing until its calls are made, then everything in order and its end', async (t) => {
  const { client, socket } = await connection(t);
  const received = readAll(client);
  let arrived = '';
  client.on('data', (chunk: string) => (arrived += chunk));
  const calls: WaitingWrite[] = [];
  deferWrites(socket, heldTurn(calls));

  socket.write('one,');
  socket.write('two,');
  socket.end('three');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(arrived, '', 'nothing left before the calls are made');
  t.equal(calls.length, 1, 'one call waits: the stream keeps the later writes behind it, as behind a slow socket');
  // Made as the end of a turn would make them, until the stream has nothing more to hand on.
  while (calls.length > 0) {
    calls.shift()!.make();
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.equal(await received, 'one,two,three', 'every write, in order, then the end');
});

t.test('answers wait for the end of the turn that made them, then leave together', async (t) => {
  const underlying: string[] = [];
  const server = createServer((request, response) => {
    response.end(`answer to ${request.url}`);
    // Still inside the handler's turn: the answer is in the socket's hands, not yet in the kernel's.
    underlying.push(`ended ${request.url}`);
    setImmediate(() => underlying.push(`next turn ${request.url}`));
  });
  // Installed first, so the calls the deferral makes land here (the socket's own hooks).
  server.on('connection', (socket: Socket) => {
    const own = socket as unknown as { _writev: (chunks: unknown[], cb: () => void) => void; _write: (c: unknown, e: string, cb: () => void) => void };
    const writev = own._writev;
    const write = own._write;
    own._writev = function (chunks, cb) {
      underlying.push('writev');
      writev.call(socket, chunks, cb);
    };
    own._write = function (chunk, encoding, cb) {
      underlying.push('write');
      write.call(socket, chunk, encoding, cb);
    };
  });
  sendResponsesPerTurn(server);
  const port = await listen(server);
  t.teardown(() => server.close());

  const res = await fetch(`http://127.0.0.1:${port}/a`);
  t.equal(await res.text(), 'answer to /a');
  t.equal(underlying[0], 'ended /a', 'no system write while the handler runs');
  t.match(underlying[1], /^writev?$/, 'written at the end of the turn…');
  t.equal(underlying.at(-1), 'next turn /a', '…before any callback of the next turn');
});

t.test('many keep-alive requests at once, a streamed answer, a large answer and a client that leaves are all served', async (t) => {
  const large = 'x'.repeat(2 * 1024 * 1024);
  const server = createServer((request, response) => {
    if (request.url === '/large') return response.end(large);
    if (request.url === '/stream') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = setInterval(() => {
        response.write(`data: ${++n}\n\n`);
        if (n === 3) {
          clearInterval(tick);
          response.end();
        }
      }, 5);
      return;
    }
    if (request.url === '/slow') return void setTimeout(() => response.end('late'), 50);
    response.end(`answer to ${request.url}`);
  });
  sendResponsesPerTurn(server);
  const port = await listen(server);
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${port}`;

  const texts = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${base}/n${i}`).then((r) => r.text())));
  t.same(texts, Array.from({ length: 50 }, (_, i) => `answer to /n${i}`), 'each request its own answer');
  t.equal((await (await fetch(`${base}/large`)).text()).length, large.length, 'a 2 MB answer arrives whole (the stream still applies backpressure)');
  t.equal(await (await fetch(`${base}/stream`)).text(), 'data: 1\n\ndata: 2\n\ndata: 3\n\n', 'a streamed answer arrives event by event');

  // A client that hangs up before its answer: the write fails like any write to a closed socket.
  const client = connect(port, '127.0.0.1');
  client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 10));
  client.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(await (await fetch(`${base}/after`)).text(), 'answer to /after', 'the server goes on answering');
});

t.test('a write that throws ends its connection, not the process', async (t) => {
  const { client, socket } = await connection(t);
  const closed = new Promise((resolve) => client.on('close', resolve));
  client.on('error', () => {});
  const failure = new Error('the handle is gone');
  (socket as unknown as { _writev: unknown; _write: unknown })._writev = (socket as unknown as { _write: unknown })._write = () => {
    throw failure;
  };
  deferWrites(socket, new ResponseTurn());
  const destroyedWith = new Promise((resolve) => socket.on('error', resolve));
  socket.write('a');
  t.equal(await destroyedWith, failure, 'the socket is destroyed with the error, at the end of the turn');
  await closed;
  t.pass('the client sees the connection close');
});

t.test('a socket destroyed right after a write (Node\'s 400 and 408, Fastify\'s client errors) still sends it', async (t) => {
  const { socket, received } = await deferredConnection(t);
  socket.write('HTTP/1.1 408 Request Timeout\r\n\r\n');
  socket.destroy();
  t.equal(await received, 'HTTP/1.1 408 Request Timeout\r\n\r\n', 'the answer left before the socket closed');

  const server = createServer((_request, response) => response.end('fine'));
  sendResponsesPerTurn(server);
  const port = await listen(server);
  t.teardown(() => server.close());
  const bad = connect(port, '127.0.0.1');
  bad.on('error', () => {});
  const answer = readAll(bad);
  bad.write('NOT HTTP AT ALL\r\n\r\n');
  t.match(await answer, /^HTTP\/1\.1 400 Bad Request/, "Node's own answer to a malformed request, then the socket closed");
});

t.test('every write made before destroy() leaves, not only the one waiting', async (t) => {
  const { socket, received } = await deferredConnection(t);
  socket.write('first,');
  socket.write('second,');
  socket.end('third');
  socket.destroy();
  t.equal(await received, 'first,second,third');
});

t.test('pipelined requests on one connection are answered in the same turn', async (t) => {
  const turnOf: number[] = [];
  let iteration = 0;
  let counting = true;
  const count = () => {
    iteration++;
    if (counting) setImmediate(count);
  };
  const server = createServer((request, response) => response.end(`answer to ${request.url}`));
  server.on('connection', (socket: Socket) => {
    const own = socket as unknown as { _writev: (chunks: unknown[], cb: () => void) => void; _write: (c: unknown, e: string, cb: () => void) => void };
    const writev = own._writev;
    const write = own._write;
    own._writev = (chunks, cb) => (turnOf.push(iteration), writev.call(socket, chunks, cb));
    own._write = (chunk, encoding, cb) => (turnOf.push(iteration), write.call(socket, chunk, encoding, cb));
  });
  sendResponsesPerTurn(server);
  const port = await listen(server);
  t.teardown(() => server.close());
  const client = connect(port, '127.0.0.1');
  const received = readAll(client);
  client.once('connect', () => {
    count();
    client.end(['/a', '/b', '/c'].map((url) => `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
  });
  const text = await received;
  counting = false;
  t.match(text, /answer to \/a[\s\S]*answer to \/b[\s\S]*answer to \/c/, 'three answers, in order');
  t.equal(turnOf.length, 3, 'one write each');
  t.equal(new Set(turnOf).size, 1, `all three in one turn (turns ${turnOf.join(', ')})`);
});

t.test('a throw from what a write calls back goes on up; the other sockets\' writes are still made', async (t) => {
  const one = await connection(t);
  const two = await connection(t);
  const received = readAll(two.client);
  const turn = new ResponseTurn();
  deferWrites(one.socket, turn);
  deferWrites(two.socket, turn);
  const boom = new Error('a finish listener failed');
  one.socket.write('a', () => {
    throw boom;
  });
  two.socket.end('still sent');
  t.throws(() => turn.flush(), boom, 'not swallowed as a socket failure');
  t.equal(await received, 'still sent');
  t.notOk(one.socket.destroyed, 'the connection whose write succeeded is kept');
  one.socket.destroy();
});

t.test('a made write is not kept: neither its socket nor the turn holds it once the pass is over', async (t) => {
  // Anything of an answer still reachable from the long-lived socket or turn outlives the young
  // collections and is copied into the old generation with all it refers to.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { client, socket } = await connection(t);
  const received = readAll(client);
  const turn = new ResponseTurn();
  deferWrites(socket, turn);
  const sent: Array<WeakRef<object>> = [];
  for (let i = 0; i < 3; i++) {
    const answer = Buffer.from(`answer ${i};`);
    sent.push(new WeakRef(answer));
    await new Promise<void>((resolve) => socket.write(answer, () => resolve()));
  }
  socket.end();
  t.equal(await received, 'answer 0;answer 1;answer 2;');
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  t.same(sent.map((ref) => ref.deref() === undefined), [true, true, true], 'every answer collected while the socket and the turn live on');
  t.ok(socket && turn, 'both still referenced here');
});

t.test("the API's server defers its connections' writes", async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const accepted = new Promise<Socket>((resolve) => app.server.once('connection', resolve));
  const client = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
  const socket = await accepted;
  t.equal((socket as unknown as { _write: { name: string } })._write.name, 'deferredWrite');
  client.destroy();
});
