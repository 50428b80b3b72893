import type { CodePage, PaperWidth, PrintJobEvent, PrintJobKind, PrinterEvent, StationMode } from '@comanda/domain';
import { positionKey } from '@comanda/read-store';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

export const PRINTERS = 'printers';
export const PRINT_JOBS = 'print_jobs';

export type PrinterView = Tracked & {
  id: string; name: string; host: string; port: number; paper_width: PaperWidth; code_page: CodePage;
  station_id: string | null; station_mode: StationMode; till: boolean; version: number;
  /** The tablets (device names) whose bills and receipts print here. */
  devices: string[];
};

/** A job in the queue, without its bytes (the spooler reads them from the job's stream). */
export type PrintJobView = Tracked & {
  id: string; printer_id: string; kind: PrintJobKind; title: string; status: 'queued' | 'printed';
  /** The queuing event's position: a printer's jobs print in this order. */
  seq: string;
  queued_at: number; attempts: number; last_error: string | null; printed_at: number | null;
  /** The kitchen station a ticket was fired to (null: a bill, receipt or test page), and whether its screen's absence printed it. */
  station_id: string | null; fallback: boolean;
};

export const printersProjection = projectionOf<PrinterEvent>({
  name: 'printers',
  // 2: the tablets a printer serves.
  version: 2,
  handles: ['PrinterAdded', 'PrinterChanged', 'PrinterRemoved'],
  collections: { [PRINTERS]: [{ name: 1 }] },
  async apply(e, store) {
    const id = e.data.printerId;
    await updateDocument(store.collection<PrinterView>(PRINTERS), id, e, (current) => {
      if (e.type === 'PrinterRemoved') return null;
      const d = e.data;
      const setup = {
        name: d.name, host: d.host, port: d.port, paper_width: d.paperWidth, code_page: d.codePage,
        station_id: d.stationId, station_mode: d.stationMode, till: d.till, devices: [...(d.devices ?? [])],
      };
      return e.type === 'PrinterAdded' ? { _id: id, id, ...setup, version: 1 } : bump(current, setup);
    });
  },
});

export const printJobsProjection = projectionOf<PrintJobEvent>({
  name: 'print-jobs',
  // 2: a kitchen job's station and whether the fallback printed it (a station's screen reads them).
  version: 2,
  handles: ['PrintJobQueued', 'PrintJobFailed', 'PrintJobPrinted'],
  collections: { [PRINT_JOBS]: [{ status: 1, seq: 1 }, { printer_id: 1, seq: 1 }, { seq: 1 }, { station_id: 1, seq: 1 }] },
  async apply(e, store) {
    const id = e.data.jobId;
    await updateDocument(store.collection<PrintJobView>(PRINT_JOBS), id, e, (current) => {
      switch (e.type) {
        case 'PrintJobQueued': {
          const d = e.data;
          return { _id: id, id, printer_id: d.printerId, kind: d.kind, title: d.title, status: 'queued', seq: positionKey(e.position), queued_at: d.queuedAt, attempts: 0, last_error: null, printed_at: null,
            station_id: d.stationId ?? null, fallback: d.fallback ?? false };
        }
        case 'PrintJobFailed':
          return current ? { ...current, attempts: e.data.attempt, last_error: e.data.error } : undefined;
        case 'PrintJobPrinted':
          return current ? { ...current, status: 'printed', attempts: e.data.attempts, printed_at: e.data.at } : undefined;
      }
    });
  },
});
