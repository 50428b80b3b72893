import { printJob, printJobStream } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import type { PrintJobView, PrinterView } from '@comanda/read-models';
import type { Collection } from '@comanda/read-store';
import type { SendToPrinter } from './connection.js';

export interface SpoolerOptions {
  commands: CommandHandler;
  jobs: Collection<PrintJobView>;
  printers: Collection<PrinterView>;
  send: SendToPrinter;
  /** Where a failure is logged beside being recorded on the job. */
  warn: (details: object, message: string) => void;
  /** The first retry after this, doubling up to `retryMaxMs`. */
  retryFirstMs?: number;
  retryMaxMs?: number;
  pollMs?: number;
  now?: () => number;
}

/**
 * Prints the queue: one worker per printer takes that printer's oldest queued job, sends it, and
 * records it printed (or the failure, then waits its backoff). Jobs to one printer go strictly in
 * order; a printer that is down holds only its own queue. The job's stream is read before sending,
 * so a job already recorded printed is never sent again, whatever the read model still says; a job
 * whose bytes reached the printer but whose record did not (a crash between) is sent again after a
 * restart: at least once, within that window.
 */
export class Spooler {
  private readonly busy = new Set<string>();
  private readonly retryAt = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private readonly working = new Set<Promise<void>>();
  private readonly o: SpoolerOptions;

  constructor(o: SpoolerOptions) {
    this.o = o;
  }

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().catch((err: unknown) => this.o.warn({ err }, 'printing: could not read the print queue')).finally(() => this.schedule());
    }, this.o.pollMs ?? 250);
  }

  /** One pass: every printer not busy and not waiting out a backoff starts on its oldest job. */
  async tick(): Promise<void> {
    const now = (this.o.now ?? Date.now)();
    const queued = await this.o.jobs.find({ status: 'queued' }, { sort: { seq: 1 } });
    const heads = new Map<string, PrintJobView>();
    for (const job of queued) if (!heads.has(job.printer_id)) heads.set(job.printer_id, job);
    for (const [printerId, job] of heads) {
      if (this.stopped || this.busy.has(printerId) || (this.retryAt.get(printerId) ?? 0) > now) continue;
      this.busy.add(printerId);
      const work = this.print(job).finally(() => (this.busy.delete(printerId), this.working.delete(work)));
      this.working.add(work);
    }
  }

  private async print(view: PrintJobView): Promise<void> {
    const { state: job } = await this.o.commands.state(printJob, printJobStream(view.id));
    if (!job.queued || job.printedAt !== null) return;
    const printer = await this.o.printers.get(job.printerId);
    // A removed printer's jobs stay queued and shown: nothing is recorded against them until it is back.
    if (!printer) return;
    const context = { userId: null, causationId: job.jobId };
    try {
      await this.o.send(printer.host, printer.port, Buffer.from(job.data, 'base64'));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = (this.o.now ?? Date.now)();
      this.retryAt.set(job.printerId, now + Math.min(this.o.retryMaxMs ?? 30_000, (this.o.retryFirstMs ?? 500) * 2 ** job.attempts));
      this.o.warn({ printer: printer.name, job: job.jobId, attempt: job.attempts + 1, error: message }, 'printing: the printer did not take the job; retrying');
      await this.o.commands.handle(printJob, printJobStream(job.jobId), { type: 'recordPrintFailure', error: message, at: now }, context);
      return;
    }
    this.retryAt.delete(job.printerId);
    await this.o.commands.handle(printJob, printJobStream(job.jobId), { type: 'recordPrinted', at: (this.o.now ?? Date.now)() }, context);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await Promise.allSettled([...this.working]);
  }
}
