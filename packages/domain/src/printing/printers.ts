import type { Decider } from '../decider.js';
import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';

/**
 * The restaurant's receipt and kitchen printers (ESC/POS over TCP), in one stream (`printers`): a
 * handful of printers whose rules span them all (names unique, one printer per station, one till
 * printer) are checked against the whole set inside one append, as the floor does for its tables.
 */
export const PRINTERS_STREAM = 'printers';

export const PAPER_WIDTHS = [58, 80] as const;
export type PaperWidth = (typeof PAPER_WIDTHS)[number];

/** The code pages both our encoder and the common Epson-compatible printers know; CP858 is CP850 with the euro sign, windows1252 Latin-1 with it. */
export const CODE_PAGES = ['cp437', 'cp850', 'cp858', 'windows1252'] as const;
export type CodePage = (typeof CODE_PAGES)[number];

/**
 * How a station's tickets reach its cooks when it has a printer: `screen` prints only when its screen
 * is gone (the fallback), `paper` prints every ticket and has no screen, `both` prints and shows.
 */
export const STATION_MODES = ['screen', 'paper', 'both'] as const;
export type StationMode = (typeof STATION_MODES)[number];

export interface PrinterSetup {
  name: string;
  host: string;
  port: number;
  paperWidth: PaperWidth;
  codePage: CodePage;
  /** The kitchen station (or bar) whose tickets it prints; null for none. */
  stationId: string | null;
  stationMode: StationMode;
  /** The till's receipt printer: bills and receipts. */
  till: boolean;
  /**
   * The tablets (their device names, as they sign in: "Tablet 3") whose bills and receipts print here
   * instead of on the till's printer. Absent in events before it existed: none.
   */
  devices?: readonly string[];
}

/** The most tablets one printer serves; a device name is as long as a session's (DEVICE_MAX). */
export const PRINTER_DEVICES_MAX = 20;
const DEVICE_NAME_MAX = 64;

export interface Printer extends PrinterSetup {
  id: string;
  version: number;
}

export interface Printers {
  printers: Record<string, Printer>;
}

export type PrinterEvent =
  | { type: 'PrinterAdded'; data: { printerId: string } & PrinterSetup }
  | { type: 'PrinterChanged'; data: { printerId: string } & PrinterSetup }
  | { type: 'PrinterRemoved'; data: { printerId: string } };

/** `stations`: the kitchen stations that exist now (the menu's), so a printer never names a station that does not. */
export type PrinterCommand =
  | ({ type: 'addPrinter'; printerId: string; stations: readonly string[] } & PrinterSetup)
  | ({ type: 'changePrinter'; printerId: string; stations: readonly string[]; ifMatch?: number } & PrinterSetup)
  | { type: 'removePrinter'; printerId: string };

// A host name or an IPv4/IPv6 address as typed in a printer's network settings: no spaces, no scheme, no port.
const HOST = /^[A-Za-z0-9._:-]{1,253}$/;

function validSetup(command: PrinterSetup & { stations: readonly string[] }): PrinterSetup {
  const errors: FieldError[] = [...nameErrors(command.name)];
  if (!HOST.test(command.host)) errors.push({ field: 'host', message: 'must be a host name or IP address' });
  if (!Number.isInteger(command.port) || command.port < 1 || command.port > 65535) errors.push({ field: 'port', message: 'must be 1-65535' });
  if (!(PAPER_WIDTHS as readonly number[]).includes(command.paperWidth)) errors.push({ field: 'paper_width', message: `must be one of ${PAPER_WIDTHS.join(', ')}` });
  if (!(CODE_PAGES as readonly string[]).includes(command.codePage)) errors.push({ field: 'code_page', message: `must be one of ${CODE_PAGES.join(', ')}` });
  if (!(STATION_MODES as readonly string[]).includes(command.stationMode)) errors.push({ field: 'station_mode', message: `must be one of ${STATION_MODES.join(', ')}` });
  if (command.stationId !== null && !command.stations.includes(command.stationId)) errors.push({ field: 'station_id', message: 'must reference an existing station' });
  const devices = [...new Set((command.devices ?? []).map((d) => d.trim()))];
  if (devices.length > PRINTER_DEVICES_MAX || devices.some((d) => d === '' || d.length > DEVICE_NAME_MAX)) {
    errors.push({ field: 'devices', message: `must be at most ${PRINTER_DEVICES_MAX} device names of 1-${DEVICE_NAME_MAX} characters` });
  }
  if (errors.length > 0) throw validationFailed(errors);
  const { name, host, port, paperWidth, codePage, stationId, stationMode, till } = command;
  return { name, host, port, paperWidth, codePage, stationId, stationMode, till, devices };
}

function unique(state: Printers, setup: PrinterSetup, except?: string): void {
  for (const other of Object.values(state.printers)) {
    if (other.id === except) continue;
    if (sameName(other.name, setup.name)) throw conflict(`A printer named ${other.name} already exists`);
    if (setup.stationId !== null && other.stationId === setup.stationId) throw conflict(`Printer ${other.name} already prints this station's tickets`);
    if (setup.till && other.till) throw conflict(`Printer ${other.name} is already the till's printer`);
    const shared = (other.devices ?? []).find((o) => (setup.devices ?? []).some((d) => sameName(o, d)));
    if (shared) throw conflict(`Printer ${other.name} already prints ${shared}'s bills`);
  }
}

function printer(state: Printers, printerId: string): Printer {
  const p = state.printers[printerId];
  if (!p) throw notFound();
  return p;
}

const same = (a: PrinterSetup, b: PrinterSetup) =>
  a.name === b.name && a.host === b.host && a.port === b.port && a.paperWidth === b.paperWidth && a.codePage === b.codePage &&
  a.stationId === b.stationId && a.stationMode === b.stationMode && a.till === b.till && (a.devices ?? []).join('\n') === (b.devices ?? []).join('\n');

export const printers: Decider<PrinterCommand, PrinterEvent, Printers> = {
  initialState: () => ({ printers: {} }),

  decide(command, state) {
    switch (command.type) {
      case 'addPrinter': {
        const setup = validSetup(command);
        if (state.printers[command.printerId]) throw conflict('This printer already exists');
        unique(state, setup);
        return [{ type: 'PrinterAdded', data: { printerId: command.printerId, ...setup } }];
      }
      case 'changePrinter': {
        const p = printer(state, command.printerId);
        unchangedSince(p.version, command.ifMatch);
        const setup = validSetup(command);
        if (same(p, setup)) return [];
        unique(state, setup, p.id);
        return [{ type: 'PrinterChanged', data: { printerId: p.id, ...setup } }];
      }
      case 'removePrinter': {
        const p = printer(state, command.printerId);
        return [{ type: 'PrinterRemoved', data: { printerId: p.id } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PrinterAdded':
      case 'PrinterChanged': {
        const { printerId, ...setup } = event.data;
        return { printers: { ...state.printers, [printerId]: { id: printerId, ...setup, version: versionAfter(state.printers[printerId]) } } };
      }
      case 'PrinterRemoved': {
        const { [event.data.printerId]: _removed, ...rest } = state.printers;
        return { printers: rest };
      }
    }
  },
};

/** The printer that prints a station's tickets, if any. */
export const stationPrinter = (state: Printers, stationId: string): Printer | undefined =>
  Object.values(state.printers).find((p) => p.stationId === stationId);

/** The till's receipt printer, if any. */
export const tillPrinter = (state: Printers): Printer | undefined => Object.values(state.printers).find((p) => p.till);

/** Where a tablet's bills and receipts print: its own printer if it has one, else the till's. */
export const billPrinter = <P extends { till: boolean; devices?: readonly string[] }>(all: readonly P[], device: string | null): P | undefined =>
  (device ? all.find((p) => (p.devices ?? []).some((d) => sameName(d, device))) : undefined) ?? all.find((p) => p.till);
