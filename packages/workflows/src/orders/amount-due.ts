import { conflict, fromCents, lineDiscounts, lineTotal, ticket, ticketFigures, ticketStream, type Order } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';

/** What an order still owes: its unbilled lines and what is due on its live tickets (read from their streams). */
export async function orderAmountDue(commands: CommandHandler, o: Order): Promise<number> {
  let due = 0;
  const discounts = lineDiscounts(o.lines, o.discounts);
  for (const line of Object.values(o.lines)) if (!o.billing.billedLines[line.lineId]) due += lineTotal(line) - (discounts.get(line.lineId) ?? 0);
  for (const bill of Object.values(o.billing.bills)) {
    for (const ticketId of bill.live) due += ticketFigures((await commands.state(ticket, ticketStream(ticketId))).state).due;
  }
  return due;
}

/** COMANDA_COMPLETE_REQUIRES_PAYMENT: an order is completed only once every line is on a paid ticket. */
export async function requirePaid(commands: CommandHandler, o: Order): Promise<void> {
  const due = await orderAmountDue(commands, o);
  if (due > 0) throw conflict(`The order cannot be completed before it is paid: ${fromCents(due).toFixed(2)} due`, { due: fromCents(due) });
}
