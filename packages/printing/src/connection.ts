import { type Socket, connect } from 'node:net';
import { STATUS_QUERIES, STATUS_QUERY, isStatusByte, printerFaults } from './status.js';

/** Sends one job's bytes to a printer; resolves once the printer has taken them. */
export type SendToPrinter = (host: string, port: number, bytes: Uint8Array) => Promise<void>;

/** The printer said it cannot print (out of paper, cover open, offline): the job stays queued. */
export class PrinterFault extends Error {}

/** One TCP connection to a printer: what it answered to status queries, and how it ended. */
class PrinterConnection {
  readonly connected: Promise<void>;
  readonly closed: Promise<void>;
  readonly answers: number[] = [];
  private readonly socket: Socket;
  private wake: () => void = () => {};
  private ended = false;
  private readonly address: string;

  constructor(address: string, host: string, port: number, timeoutMs: number) {
    this.address = address;
    const socket = connect({ host, port });
    this.socket = socket;
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer from ${address} within ${timeoutMs} ms`)));
    this.connected = new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    // Status answers are kept; any other byte a printer sends back is read and dropped so its close reaches us.
    socket.on('data', (chunk: Buffer) => {
      for (const b of chunk) if (isStatusByte(b)) this.answers.push(b);
      this.wake();
    });
    socket.on('end', () => (this.ended = true));
    this.closed = new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (hadError) => {
        this.wake();
        if (hadError) return;
        if (this.ended) resolve();
        else reject(new Error(`${address} closed before taking the job`));
      });
    });
    this.closed.catch(() => {});
  }

  /** Asks the printer's status; the answers (one per query) if they come within `waitMs`, else null. */
  async ask(waitMs: number): Promise<number[] | null> {
    const from = Math.floor(this.answers.length / STATUS_QUERIES.length) * STATUS_QUERIES.length;
    this.socket.write(STATUS_QUERY);
    const deadline = Date.now() + waitMs;
    while (this.answers.length < from + STATUS_QUERIES.length && Date.now() < deadline && !this.socket.closed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
    const answers = this.answers.slice(from, from + STATUS_QUERIES.length);
    return answers.length === STATUS_QUERIES.length ? answers : null;
  }

  write(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Half-closes our side and waits for the printer to close its own: its acknowledgement. */
  async finish(): Promise<void> {
    this.socket.end();
    await this.closed;
  }

  /** Throws what the printer said is wrong, if anything. */
  check(answers: readonly number[] | null): void {
    for (let i = 0; answers && i < answers.length; i += STATUS_QUERIES.length) {
      const faults = printerFaults(answers.slice(i, i + STATUS_QUERIES.length));
      if (faults.length > 0) throw new PrinterFault(faults.join(', '));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  toString(): string {
    return this.address;
  }
}

/**
 * Raw TCP to an ESC/POS printer (port 9100). The printer's real-time status (DLE EOT 1, 2, 4) is
 * asked before the job and again after its bytes: paper end, an open cover or offline fails the job
 * with what the printer said, so it stays queued and is retried. Then our side is half-closed; the job
 * counts as printed only when the printer closes its side too and the socket closes without error:
 * a printer that takes the connection but never answers, or resets it, has not printed for us.
 *
 * A printer that does not answer the status query within `statusTimeoutMs` (some compatibles ignore
 * DLE EOT) is printed to as before, on its close alone; it is remembered as silent, so its next jobs
 * do not wait for an answer, until it answers one again (the queries are still sent and any answer
 * that comes before its close is still heeded).
 */
export const sendOverTcp = (timeoutMs = 10_000, statusTimeoutMs = 1_000): SendToPrinter => {
  const silent = new Set<string>();
  return async (host, port, bytes) => {
    const address = `${host}:${port}`;
    const printer = new PrinterConnection(address, host, port, timeoutMs);
    try {
      await printer.connected;
      const before = await printer.ask(silent.has(address) ? 0 : statusTimeoutMs);
      printer.check(before);
      printer.write(bytes);
      printer.check(await printer.ask(before ? statusTimeoutMs : 0));
      await printer.finish();
      // Whatever answered late, up to the printer's close, still counts.
      printer.check(printer.answers);
      if (printer.answers.length > 0) silent.delete(address);
      else silent.add(address);
    } finally {
      printer.destroy();
    }
  };
};
