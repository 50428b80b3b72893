import {
  MENU_STREAM, PRINTERS_STREAM, type Printer, type StationMode, kitchenTicket, kitchenTicketStream, menu, printJob, printJobId, printJobStream, printers, stationPrinter,
} from '@comanda/domain';
import type { CommandContext, CommandHandler } from '@comanda/event-store';
import { type TicketHeading, renderKitchenTicket, renderVoid } from '@comanda/printing';

/** What a kitchen event asks of paper: a fired ticket, or a line taken back after firing. */
export type KitchenPaper = { ticketId: string; causeId: string; at: number } & ({ kind: 'fired' } | { kind: 'void'; lineId: string });

export interface KitchenPaperPolicy {
  timezone: string;
  /** Whether a screen-mode station's display has been gone long enough for its printer to take over. */
  screenGone: (stationId: string) => Promise<boolean>;
}

/** Paper and both always print; a screen prints only while its display is gone (the fallback). */
const prints = async (mode: StationMode, screenGone: () => Promise<boolean>) => mode !== 'screen' || (await screenGone());

/**
 * Queues the paper a kitchen event calls for at its station's printer: the ticket when lines are
 * fired, "VOID 1 x Rib-eye" when a fired line is taken back. Decided from the ticket's stream and the
 * printers as they are now; the job's id comes from the event, so a redelivered event queues nothing
 * more. Returns the job queued, or null when the station prints nothing.
 */
export async function printKitchenTicket(commands: CommandHandler, paper: KitchenPaper, policy: KitchenPaperPolicy, context: CommandContext): Promise<string | null> {
  const { state: ticket } = await commands.state(kitchenTicket, kitchenTicketStream(paper.ticketId));
  if (!ticket.opened) return null;
  const printer: Printer | undefined = stationPrinter((await commands.state(printers, PRINTERS_STREAM)).state, ticket.stationId);
  if (!printer || !(await prints(printer.stationMode, () => policy.screenGone(ticket.stationId)))) return null;
  const stationName = (await commands.state(menu, MENU_STREAM)).state.stations[ticket.stationId]?.name ?? 'Kitchen';
  const heading: TicketHeading = {
    tableName: ticket.tableName, waiter: ticket.waiter, stationName, at: paper.kind === 'fired' ? ticket.firedAt : paper.at,
    ...(ticket.orderNumber !== undefined ? { orderNumber: ticket.orderNumber } : {}),
  };
  const where = { paperWidth: printer.paperWidth, codePage: printer.codePage };
  let bytes: Uint8Array;
  let title: string;
  if (paper.kind === 'fired') {
    bytes = renderKitchenTicket(where, heading, ticket.lines, policy.timezone);
    title = `${ticket.tableName ?? 'Takeaway'} · ${stationName}`;
  } else {
    const line = ticket.kitchenLines[paper.lineId];
    if (!line) return null;
    bytes = renderVoid(where, heading, line, policy.timezone);
    title = `VOID ${line.quantity ?? 1} x ${line.dishName} · ${ticket.tableName ?? 'Takeaway'}`;
  }
  const jobId = printJobId(paper.causeId);
  await commands.handle(printJob, printJobStream(jobId), {
    type: 'queuePrintJob', jobId, printerId: printer.id, kind: 'kitchen', title, data: Buffer.from(bytes).toString('base64'), queuedAt: paper.at,
    stationId: ticket.stationId, ...(printer.stationMode === 'screen' ? { fallback: true } : {}),
  }, context);
  return jobId;
}
