import { TurnBatches } from '@comanda/postgres';

/**
 * Fewer round trips for the reads of one process. On the distributed shape a write cost ~30
 * statements across the processes, and each statement's round trip (a loopback write, a wake of
 * the server's backend and of the reader) cost more than the statement itself; these two classes
 * take out the repeated ones without ever answering from before a caller asked.
 */

/**
 * The log's pages as the subscriptions of one process read them. The projector runs four (read
 * models, relay, kitchen relay, reactions); woken by the same append they read the same page from
 * the same position. A page read since the last wake is shared: it holds every event committed
 * before that wake, which is all any of them was woken for. Any wake starts a new generation
 * (pages are read again), so nothing is answered from before the wake a caller acts on.
 */
export class SharedPages<P> {
  private readonly pages = new Map<string, Promise<P>>();
  private readonly read: (after: bigint, limit: number) => Promise<P>;
  private readonly kept: number;

  constructor(
    read: (after: bigint, limit: number) => Promise<P>,
    /** Pages kept per generation: subscriptions at one position read one after the other. */
    kept = 8,
  ) {
    this.read = read;
    this.kept = kept;
  }

  /** Something may have been committed: the next reads go to the server. */
  wake(): void {
    this.pages.clear();
  }

  page(after: bigint, limit: number): Promise<P> {
    const key = `${after}/${limit}`;
    const shared = this.pages.get(key);
    if (shared) return shared;
    const page = this.read(after, limit);
    this.pages.set(key, page);
    if (this.pages.size > this.kept) this.pages.delete(this.pages.keys().next().value!);
    // A failed read is not handed to the next caller: it tries the server again.
    page.catch(() => {
      if (this.pages.get(key) === page) this.pages.delete(key);
    });
    return page;
  }
}

interface Wanted<E> {
  stream: string;
  from: number;
  resolve(events: E[]): void;
  reject(error: unknown): void;
}

/** Streams per statement at most (a burst beyond it takes more statements). */
const MAX_STREAMS = 200;

/**
 * Stream reads asked for together go to the server as one statement: a signed-in request checks its
 * session and the roster (two streams, every request), and requests arriving together all ask for the
 * roster. Reads asked in one turn of the event loop are sent together, and while two statements are
 * out, the reads asked meanwhile wait and go in the next one. Each read is sent after it was asked
 * for, so it sees every event committed before; the same stream is read once per statement.
 */
export class BatchedStreamReads<E extends { stream: string; revision: number }> {
  private readonly batches = new TurnBatches<Wanted<E>>((batch) => this.send(batch), MAX_STREAMS);
  private readonly readOne: (stream: string, from: number) => Promise<E[]>;
  private readonly readMany: (streams: string[], froms: number[]) => Promise<E[]>;

  constructor(
    readOne: (stream: string, from: number) => Promise<E[]>,
    readMany: (streams: string[], froms: number[]) => Promise<E[]>,
  ) {
    this.readOne = readOne;
    this.readMany = readMany;
  }

  read(stream: string, from: number): Promise<E[]> {
    return new Promise<E[]>((resolve, reject) => this.batches.add({ stream, from, resolve, reject }));
  }

  private async send(batch: Wanted<E>[]): Promise<void> {
    // One read per stream, from the lowest revision asked for; each caller gets its part.
    const from = new Map<string, number>();
    for (const w of batch) from.set(w.stream, Math.min(w.from, from.get(w.stream) ?? w.from));
    try {
      if (from.size === 1) {
        const [stream, lowest] = [...from][0]!;
        const events = await this.readOne(stream, lowest);
        for (const w of batch) w.resolve(w.from === lowest ? events : events.filter((e) => e.revision >= w.from));
        return;
      }
      const rows = await this.readMany([...from.keys()], [...from.values()]);
      const byStream = new Map<string, E[]>();
      for (const row of rows) {
        const list = byStream.get(row.stream);
        if (list) list.push(row);
        else byStream.set(row.stream, [row]);
      }
      for (const w of batch) {
        const events = byStream.get(w.stream) ?? [];
        w.resolve(w.from === from.get(w.stream) ? events : events.filter((e) => e.revision >= w.from));
      }
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
