import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers leave at the end of the event-loop turn that produced them, all together, instead of one
 * system call as each is finished.
 *
 * Why: a client waiting on its sockets (a tablet's browser, a proxy, a load generator) sleeps between
 * answers, and each answer sent on its own wakes it again. On a busy loopback or a virtual machine that
 * wake-up is paid inside the server's `writev` (the kernel delivers the bytes and wakes the reader in
 * the writer's system call): measured on these 2-core VMs it was 5–6 µs of a small GET's ~40 µs, and
 * the load generator slept 0.77 times per answer. Written together, the answers of one turn cost the
 * reader one wake-up (0.14 per answer) and the server's system time per GET fell from 15 to 10 µs.
 * An answer waits for the rest of its turn only, never for a timer: the callbacks of the other sockets
 * that were ready with it (their requests) and the immediates queued before its own (a projector batch
 * scheduled in that turn runs first, as it would have delayed the next request anyway); one made in
 * the check phase itself waits for the next turn's.
 *
 * How: Node's `ServerResponse.end()` uncorks its socket completely, so corking from outside does not
 * hold; instead each connection's `_write`/`_writev` (the Writable hooks every write goes through)
 * queue the call, and one `setImmediate` (the check phase, right after the poll phase that read the
 * requests) makes them in order. The stream's own buffering and backpressure are unchanged: while a
 * call waits its callback has not run, so later writes queue in the stream as they would behind a slow
 * socket, and the socket is ended only after they are made; a socket destroyed meanwhile makes its
 * waiting writes first (`deferWrites`).
 */
export function sendResponsesPerTurn(server: Server): void {
  const turn = new ResponseTurn();
  server.on('connection', (socket: Socket) => deferWrites(socket, turn));
}

/** A write a socket's stream handed on, to be made later; `calledBack` once the stream has been told how it went. */
export interface WaitingWrite {
  make(): void;
  calledBack(): boolean;
}

/** A stream hands on at most its buffer per completed write: more rounds than this in one destroy is a loop. */
const MAX_ROUNDS_ON_DESTROY = 1_000;

/** A socket's writes waiting for the turn, kept on the socket itself (see `ResponseTurn`). */
const WAITING = Symbol('writes waiting for the turn');
type WithWaiting = Socket & { [WAITING]?: WaitingWrite[] | null };

/**
 * The writes waiting for the end of the turn, by socket, in the order they came. A stream hands its
 * socket the next write only once the last one has called back, so a socket has one waiting at a time.
 *
 * Each socket holds its own waiting writes and the turn a list of the sockets that have some, new each
 * turn. Not a Map of socket to writes: with one, every request's objects were promoted (measured: 2 MB
 * per young collection, 4–9 ms pauses every 50 ms, a third of a small GET's CPU), and with the writes on
 * the socket none are. Our reading of why (V8's design, not traced): a Map that has entries added and
 * deleted every turn rehashes into a new table every few turns, and V8 links each old table to its
 * successor without clearing it (for iterators that still walk it). An old table that had reached the old generation then kept the next one
 * alive, with every response and request its entries held, from one young collection to the next.
 */
export class ResponseTurn {
  private sockets: WithWaiting[] = [];
  private scheduled = false;

  later(socket: Socket, write: WaitingWrite): void {
    const own = socket as WithWaiting;
    const writes = own[WAITING];
    if (writes) writes.push(write);
    else {
      own[WAITING] = [write];
      this.sockets.push(own);
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * The turn's end: every waiting write, and those handed on while they are made, in the same pass
   * (the list is walked to its current end, and a socket given a write during the pass joins it
   * again): the next pipelined answer on a socket, which Node attaches when the one before has
   * finished, or the rest of a stream's buffer. A throw from the code a write calls back (the
   * response's 'finish' listeners) goes on up, as it did from `res.end()`, and the writes still
   * waiting get the next immediate.
   */
  flush(): void {
    this.scheduled = false;
    const sockets = this.sockets;
    let next = 0;
    try {
      while (next < sockets.length) this.makeWaiting(sockets[next++]!);
    } finally {
      this.sockets = next === sockets.length ? [] : sockets.slice(next);
      if (this.sockets.length > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }
  }

  /**
   * The socket's waiting writes made now, before it is destroyed, with every write its stream hands on
   * as they complete: all that was written before `destroy()` leaves, as it did when each write was
   * made at once. (The socket stays in the turn's list with nothing waiting: the pass skips it.)
   */
  now(socket: Socket): void {
    const own = socket as WithWaiting;
    for (let round = 0; round < MAX_ROUNDS_ON_DESTROY && own[WAITING]; round++) this.makeWaiting(own);
  }

  private makeWaiting(socket: WithWaiting): void {
    const writes = socket[WAITING];
    if (!writes) return;
    socket[WAITING] = null;
    for (const write of writes) make(socket, write);
  }
}

/**
 * The socket's writes wait for the turn's end. Its `destroy` makes them first: Node's own 400/408/431
 * and Fastify's client-error answers are written and the socket destroyed in the same breath, and an
 * event stream ended on shutdown is destroyed by `closeIdleConnections` in the turn it was ended in.
 * (`destroy`, not `_destroy`: by `_destroy` the stream is marked destroyed and fails the writes still
 * in its buffer.)
 */
export function deferWrites(socket: Socket, turn: Pick<ResponseTurn, 'later' | 'now'>): void {
  type Hooks = { _write: Socket['_write']; _writev?: Socket['_writev']; destroy: Socket['destroy'] };
  const own = socket as unknown as Hooks;
  const write = own._write;
  const writev = own._writev;
  const destroy = own.destroy;
  // Every socket gets the field at once, so they all keep one shape.
  (socket as WithWaiting)[WAITING] = null;
  own._write = function deferredWrite(chunk, encoding, callback) {
    turn.later(socket, new SocketWrite(socket, write, writev, chunk, encoding, undefined, callback));
  };
  if (writev) {
    own._writev = function deferredWritev(chunks, callback) {
      turn.later(socket, new SocketWrite(socket, write, writev, undefined, undefined, chunks, callback));
    };
  }
  own.destroy = function destroyAfterWaitingWrites(error?: Error) {
    turn.now(socket);
    return destroy.call(socket, error);
  };
}

type WriteCallback = (error?: Error | null) => void;
type Chunks = Parameters<NonNullable<Socket['_writev']>>[0];

/**
 * One call of the socket's own `_write` (a chunk) or `_writev` (chunks), made later: one object a
 * write, not a closure for each part, as every answer passes here.
 */
class SocketWrite implements WaitingWrite {
  private called = false;

  constructor(
    private readonly socket: Socket,
    private readonly write: Socket['_write'],
    private readonly writev: Socket['_writev'],
    private readonly chunk: unknown,
    private readonly encoding: BufferEncoding | undefined,
    private readonly chunks: Chunks | undefined,
    private readonly callback: WriteCallback,
  ) {}

  make(): void {
    const done: WriteCallback = (error) => {
      this.called = true;
      this.callback(error);
    };
    if (this.chunks) this.writev!.call(this.socket, this.chunks, done);
    else this.write.call(this.socket, this.chunk, this.encoding!, done);
  }

  calledBack(): boolean {
    return this.called;
  }
}

/**
 * A socket's write reports its failures to its callback; were the write itself ever to throw, it
 * would now throw in the turn's `setImmediate`, far from the request, with the other sockets' writes
 * unmade: it ends that connection instead. A throw from the code the write called back is not the
 * socket's and goes on up.
 */
function make(socket: Socket, write: WaitingWrite): void {
  try {
    write.make();
  } catch (error) {
    if (write.calledBack()) throw error;
    socket.destroy(error as Error);
  }
}
