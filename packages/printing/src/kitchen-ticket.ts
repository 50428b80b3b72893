import type { LineForCooks, TicketOpening } from '@comanda/domain';
import { type Paper, clockTime, columnsOf, encoderFor } from './paper.js';

/** A kitchen ticket's header: which table, which order, who took it, when, and for which station. */
export interface TicketHeading {
  tableName: string | null;
  orderNumber?: number;
  waiter: string;
  stationName: string;
  at: number;
}

export interface TicketLine extends LineForCooks {
  dishName: string;
  notes: string;
}

const heading = (paper: Paper, h: TicketHeading, timeZone: string, title?: string) => {
  const e = encoderFor(paper).bold(true).size(2, 2);
  if (title) e.line(title);
  e.line(h.tableName ?? 'Takeaway').size(1, 1).bold(false);
  e.line(`${h.orderNumber !== undefined ? `Order #${h.orderNumber} · ` : ''}${h.stationName}`);
  e.line(`${h.waiter} · ${clockTime(h.at, timeZone)}`);
  return e.rule({ style: 'single' });
};

/**
 * The paper a station prints when lines are fired to it: grouped by course, each line's quantity and
 * dish in double size, its seat, then its options and notes in double height (a cook reads them from
 * arm's length at the pass).
 */
export function renderKitchenTicket(paper: Paper, h: TicketHeading, lines: readonly TicketLine[], timeZone: string): Uint8Array {
  const e = heading(paper, h, timeZone);
  const courses = [...new Set(lines.map((l) => l.course ?? 1))].sort((a, b) => a - b);
  for (const course of courses) {
    e.bold(true).line(`Course ${course}`).bold(false);
    for (const l of lines.filter((x) => (x.course ?? 1) === course)) {
      e.size(2, 2).line(`${l.quantity ?? 1} x ${l.dishName}`).size(1, 1);
      if (l.seat != null) e.line(`  Seat ${l.seat}`);
      e.size(1, 2);
      for (const option of l.modifiers ?? []) e.line(`  + ${option}`);
      if (l.notes.trim() !== '') e.line(`  ! ${l.notes.trim()}`);
      e.size(1, 1);
    }
  }
  return e.newline(2).cut().encode();
}

/** A line taken back after it was fired: the cooks must stop making it. */
export function renderVoid(paper: Paper, h: TicketHeading, line: TicketLine, timeZone: string): Uint8Array {
  const e = heading(paper, h, timeZone, 'VOID');
  e.size(2, 2).line(`VOID ${line.quantity ?? 1} x ${line.dishName}`).size(1, 1);
  if (line.seat != null) e.line(`  Seat ${line.seat}`);
  return e.newline(2).cut().encode();
}

/** A test page: the printer's name, its paper and code page, and the characters a menu needs. */
export function renderTestPage(paper: Paper, printerName: string, at: number, timeZone: string): Uint8Array {
  const columns = columnsOf(paper.paperWidth);
  return encoderFor(paper)
    .bold(true).size(2, 2).line('Test print').size(1, 1).bold(false)
    .line(printerName)
    .line(`${paper.paperWidth} mm · ${columns} columns · ${paper.codePage}`)
    .line(clockTime(at, timeZone))
    .line('Crème brûlée, jalapeño, Würstel')
    .line(paper.codePage === 'cp437' || paper.codePage === 'cp850' ? 'Prices in the base currency' : 'Price: 12,50 €')
    .line('-'.repeat(columns))
    .newline(2).cut().encode();
}
