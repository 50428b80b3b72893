import type { Decider } from '../decider.js';
import { conflict, notFound } from '../errors.js';
import { idFromKey } from '../ids.js';

/**
 * One piece of paper to print (`printjob-<id>`): the bytes for the printer, rendered when it was
 * queued, and what became of them. Its own stream so a kitchen rush never contends with the printers'
 * configuration; the spooler records each attempt here, so the queue (age, attempts, last error) is
 * readable by every process and a restart resumes it.
 */
export const printJobStream = (jobId: string) => `printjob-${jobId}`;

/** A job derived from what caused it (an event's id, a request's key): queuing it again meets the same stream. */
export const printJobId = (...cause: string[]) => idFromKey('printjob', ...cause);

export const PRINT_JOB_KINDS = ['kitchen', 'bill', 'receipt', 'test'] as const;
export type PrintJobKind = (typeof PRINT_JOB_KINDS)[number];

export interface PrintJobQueuing {
  jobId: string;
  printerId: string;
  kind: PrintJobKind;
  /** What the queue shows for it ("Table 4 · Grill", "Bill 2f1c…"). */
  title: string;
  /** The ESC/POS bytes, base64. */
  data: string;
  queuedAt: number;
  /** A kitchen ticket's station (its screen shows the station's queue); absent on bills, receipts, test pages. */
  stationId?: string;
  /** Printed because the station's screen was gone (a `screen` station's fallback): the screen says so when it returns. */
  fallback?: boolean;
}

export interface PrintJob extends PrintJobQueuing {
  queued: boolean;
  attempts: number;
  lastError: string | null;
  printedAt: number | null;
}

export type PrintJobEvent =
  | { type: 'PrintJobQueued'; data: PrintJobQueuing }
  | { type: 'PrintJobFailed'; data: { jobId: string; printerId: string; attempt: number; error: string; at: number } }
  | { type: 'PrintJobPrinted'; data: { jobId: string; printerId: string; attempts: number; at: number } };

export type PrintJobCommand =
  | ({ type: 'queuePrintJob' } & PrintJobQueuing)
  | { type: 'recordPrintFailure'; error: string; at: number }
  | { type: 'recordPrinted'; at: number };

const queued = (state: PrintJob): PrintJob => {
  if (!state.queued) throw notFound();
  return state;
};

export const printJob: Decider<PrintJobCommand, PrintJobEvent, PrintJob> = {
  initialState: () => ({ jobId: '', printerId: '', kind: 'test', title: '', data: '', queuedAt: 0, queued: false, attempts: 0, lastError: null, printedAt: null }),

  decide(command, state) {
    switch (command.type) {
      case 'queuePrintJob': {
        // Queued once: a reaction delivered twice, or a request retried, meets its own job.
        if (state.queued) return [];
        const { type: _type, ...job } = command;
        return [{ type: 'PrintJobQueued', data: job }];
      }
      case 'recordPrintFailure': {
        const job = queued(state);
        if (job.printedAt !== null) throw conflict('This job was printed');
        return [{ type: 'PrintJobFailed', data: { jobId: job.jobId, printerId: job.printerId, attempt: job.attempts + 1, error: command.error.slice(0, 200), at: command.at } }];
      }
      case 'recordPrinted': {
        const job = queued(state);
        if (job.printedAt !== null) return [];
        return [{ type: 'PrintJobPrinted', data: { jobId: job.jobId, printerId: job.printerId, attempts: job.attempts + 1, at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PrintJobQueued':
        return { ...state, ...event.data, queued: true };
      case 'PrintJobFailed':
        return { ...state, attempts: event.data.attempt, lastError: event.data.error };
      case 'PrintJobPrinted':
        return { ...state, attempts: event.data.attempts, printedAt: event.data.at };
    }
  },
};
