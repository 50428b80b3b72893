import { statusAnswers } from '@comanda/printing';
import iconv from 'iconv-lite';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';

/** One line as it came out of the printer: its text and how it was set. */
export interface PrintedLine {
  text: string;
  bold: boolean;
  /** Character size (GS !): 1 normal, 2 double. The largest used on the line. */
  width: number;
  height: number;
}

/** What one connection printed: its lines, and how many times the paper was cut. */
export interface PrintedJob {
  lines: PrintedLine[];
  cuts: number;
  /** The lines as text, trailing spaces trimmed (centring pads with spaces). */
  text: string[];
  /** What each QR code printed says (`GS ( k`: stored, then printed), in order. */
  qr: string[];
}

// Epson's numbers for `ESC t n`: the code pages Comanda configures.
const CODE_PAGE_NUMBERS: Record<number, string> = { 0: 'cp437', 2: 'cp850', 16: 'windows1252', 19: 'cp858' };

// ESC and GS commands by how many argument bytes follow them (GS V takes one more for its feed forms).
const ESC_ONE_ARG = new Set([0x21, 0x2d, 0x33, 0x45, 0x47, 0x4a, 0x4d, 0x52, 0x56, 0x61, 0x64, 0x72, 0x74, 0x7b, 0x20, 0x25, 0x63]);
const GS_ONE_ARG = new Set([0x21, 0x42, 0x48, 0x66, 0x68, 0x77, 0x61, 0x62]);

/**
 * Parses the ESC/POS a receipt printer receives into lines and cuts, as the paper would show them.
 * Text is decoded in the code page selected by `ESC t` (after `ESC @`, the configured default). An
 * unknown command is an error: a test must not pass on bytes a printer would print as garbage.
 */
export function parseEscPos(bytes: Uint8Array, defaultCodePage = 'cp437'): PrintedJob {
  const lines: PrintedLine[] = [];
  let cuts = 0;
  let codePage = defaultCodePage;
  let style = { bold: false, width: 1, height: 1 };
  let line: PrintedLine = { text: '', bold: false, width: 1, height: 1 };
  let pending: number[] = [];
  const qr: string[] = [];
  let storedQr: string | null = null;
  const flushText = () => {
    if (pending.length === 0) return;
    line.text += iconv.decode(Buffer.from(pending), codePage);
    line.bold ||= style.bold;
    line.width = Math.max(line.width, style.width);
    line.height = Math.max(line.height, style.height);
    pending = [];
  };
  const endLine = () => {
    flushText();
    lines.push(line);
    line = { text: '', bold: false, width: 1, height: 1 };
  };
  const arg = (i: number) => {
    if (i >= bytes.length) throw new Error(`ESC/POS: a command cut short at byte ${i}`);
    return bytes[i]!;
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x0a) endLine();
    else if (b === 0x0d) continue;
    else if (b === 0x1b) {
      flushText();
      const c = arg(++i);
      if (c === 0x40) { codePage = defaultCodePage; style = { bold: false, width: 1, height: 1 }; }
      else if (c === 0x74) { const n = arg(++i); codePage = CODE_PAGE_NUMBERS[n] ?? fail(`ESC t ${n}: a code page the simulator does not know`); }
      else if (c === 0x45) style = { ...style, bold: arg(++i) !== 0 };
      else if (c === 0x21) { const n = arg(++i); style = { bold: (n & 0x08) !== 0, width: n & 0x20 ? 2 : 1, height: n & 0x10 ? 2 : 1 }; }
      else if (c === 0x32) continue;
      else if (c === 0x70) i += 3;
      else if (ESC_ONE_ARG.has(c)) i++;
      else fail(`ESC 0x${c.toString(16)}: unknown to the simulator`);
    } else if (b === 0x1d) {
      flushText();
      const c = arg(++i);
      if (c === 0x21) { const n = arg(++i); style = { ...style, width: (n >> 4) + 1, height: (n & 0x0f) + 1 }; }
      else if (c === 0x56) { const m = arg(++i); if (m >= 65) i++; cuts++; }
      else if (c === 0x4c || c === 0x57) i += 2;
      else if (c === 0x28 && arg(i + 1) === 0x6b) {
        // GS ( k pL pH cn fn …: a 2D code's function; the QR's (cn 49) store (fn 80, m 48, data) and print (fn 81).
        const length = arg(i + 2) + arg(i + 3) * 256;
        const [cn, fn] = [arg(i + 4), arg(i + 5)];
        if (i + 3 + length >= bytes.length) fail('GS ( k: cut short');
        if (cn === 49 && fn === 80) storedQr = Buffer.from(bytes.subarray(i + 7, i + 4 + length)).toString('utf8');
        if (cn === 49 && fn === 81) qr.push(storedQr ?? fail('GS ( k: a QR printed with nothing stored'));
        i += 3 + length;
      }
      else if (GS_ONE_ARG.has(c)) i++;
      else fail(`GS 0x${c.toString(16)}: unknown to the simulator`);
    } else if (b === 0x1c) {
      flushText();
      const c = arg(++i);
      if (c !== 0x2e && c !== 0x26) fail(`FS 0x${c.toString(16)}: unknown to the simulator`);
    } else if (b < 0x20) fail(`control byte 0x${b.toString(16)} in text`);
    else pending.push(b);
  }
  if (pending.length > 0 || line.text !== '') endLine();
  return { lines, cuts, text: lines.map((l) => l.text.trimEnd()), qr };
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * A receipt printer on 127.0.0.1 speaking raw TCP (port 9100's protocol): it reads a connection to
 * its end, prints it (parses it into `jobs`), then closes its side, which is the printer's
 * acknowledgement. It answers real-time status queries (DLE EOT 1, 2, 4) as they arrive, as Epson TM
 * printers do; `paperOut` or `coverOpen` make it say so and print nothing while still taking the
 * connection and closing it as usual (what a real one does); `answersStatus = false` makes it a
 * compatible that ignores the queries. `stop()` unplugs it (connections refused); `start()` again on
 * the same port plugs it back in. `stopAfter(n)` unplugs it the moment its n-th job is printed, before
 * acknowledging the next: a test can crash the spooler with exactly n jobs on paper.
 */
export class PrinterSimulator {
  readonly jobs: PrintedJob[] = [];
  readonly errors: string[] = [];
  paperOut = false;
  coverOpen = false;
  answersStatus = true;
  /** Status queries answered, and jobs (bytes beyond the queries) received but not printed: no paper, cover open. */
  statusQueries = 0;
  unprinted = 0;
  private server: Server | null = null;
  private portNumber = 0;
  private unplugAt = Infinity;
  private waiters: Array<() => void> = [];
  private readonly codePage: string;

  constructor(codePage = 'cp437') {
    this.codePage = codePage;
  }

  get port(): number {
    return this.portNumber;
  }

  async start(port = this.portNumber): Promise<number> {
    const server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.portNumber = (server.address() as AddressInfo).port;
    return this.portNumber;
  }

  stopAfter(jobs: number): void {
    this.unplugAt = jobs;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once at least `count` jobs are printed. */
  async waitForJobs(count: number, timeoutMs = 20_000): Promise<PrintedJob[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.jobs.length < count) {
      if (Date.now() > deadline) throw new Error(`printer: ${this.jobs.length} of ${count} jobs after ${timeoutMs} ms (errors: ${this.errors.join('; ')})`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.jobs.slice(0, count);
  }

  private serve(socket: Socket): void {
    const chunks: Buffer[] = [];
    // DLE EOT n is taken out of the stream and answered at once; `held` keeps one cut across chunks.
    const held: number[] = [];
    socket.on('data', (chunk: Buffer) => {
      const data: number[] = [];
      for (const b of chunk) {
        held.push(b);
        if (held[0] !== 0x10 || (held.length > 1 && held[1] !== 0x04)) data.push(...held.splice(0));
        else if (held.length === 3) this.answerStatus(socket, held.splice(0)[2]!);
      }
      chunks.push(Buffer.from(data));
    });
    socket.on('error', (err) => this.errors.push(err.message));
    socket.on('end', () => {
      chunks.push(Buffer.from(held));
      const data = Buffer.concat(chunks);
      // A connection that only asked the status (and was told no paper) is no job.
      if (data.length > 0 && (this.paperOut || this.coverOpen)) this.unprinted++;
      else if (data.length > 0) {
        try {
          this.jobs.push(parseEscPos(data, this.codePage));
        } catch (err) {
          this.errors.push((err as Error).message);
          socket.destroy();
          return;
        }
      }
      // Unplugged before the acknowledgement goes out, so nothing more is accepted after this job.
      if (this.jobs.length >= this.unplugAt) void this.stop();
      socket.end();
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  private answerStatus(socket: Socket, n: number): void {
    if (!this.answersStatus) return;
    this.statusQueries++;
    const [printer, offlineCause, paper] = statusAnswers(this);
    // n=3 (the error cause) has nothing to report here: the fixed bits alone.
    socket.write(Uint8Array.of(n === 1 ? printer! : n === 2 ? offlineCause! : n === 4 ? paper! : 0x12));
  }
}
