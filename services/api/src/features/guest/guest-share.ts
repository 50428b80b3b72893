import { conflict, fromCents, validationFailed } from '@comanda/domain';

/** What a guest asks to pay: never an amount of the bill, only which share; the tip is theirs to choose. */
export interface ShareAsk {
  share: 'all' | 'even' | 'lines';
  /** For an even share: how many guests split the bill. */
  guests?: number;
  /** For "my items": the bill's lines the guest pays. */
  lineIds?: string[];
  /** A preset tip, percent of the share. */
  tipPercent?: number;
  /** A tip of the guest's own, in cents. */
  tipCents?: number;
}

/**
 * The server's price of a guest's share, in cents: the whole remainder, or one of n even shares of
 * the bill (its subtotal over n, rounded up to the cent, never more than what remains), and the tip:
 * a percent of the share rounded half up, or the guest's own amount. "My items" are the lines' share of
 * the bill (their totals over all lines' of the subtotal: service charge and added taxes in proportion).
 */
export function priceShare(bill: GuestBillCents, ask: ShareAsk): { amountCents: number; tipCents: number } {
  if (bill.dueCents <= 0) throw conflict('Nothing is left to pay on this bill');
  if ((ask.share === 'even') !== (ask.guests !== undefined)) throw validationFailed([{ field: 'guests', message: 'goes with an even share, and only with it' }]);
  if ((ask.share === 'lines') !== (ask.lineIds !== undefined)) throw validationFailed([{ field: 'line_ids', message: 'goes with "my items" (share: lines), and only with it' }]);
  if (ask.tipPercent !== undefined && ask.tipCents !== undefined) {
    throw validationFailed([{ field: 'tip', message: 'give a tip percent or a tip amount, not both' }]);
  }
  const amountCents = ask.share === 'all' ? bill.dueCents
    : ask.share === 'even' ? Math.min(bill.dueCents, Math.ceil(bill.subtotalCents / ask.guests!))
    : Math.min(bill.dueCents, linesPrice(bill, ask.lineIds!));
  const tipCents = ask.tipPercent !== undefined ? Math.round((amountCents * ask.tipPercent) / 100) : (ask.tipCents ?? 0);
  // A tip of one's own is the only amount a guest names (zero or more, to the cent: centsOf). It is capped
  // at the whole bill before tips (its subtotal: service charge and taxes in): a tip as large as the bill is
  // already past any custom, and above it is a slip (4750 typed for 47.50) that a Lightning payment cannot
  // take back; the restaurant would refund it by hand. The presets stop at 100 % of the share, below it.
  if (tipCents > bill.subtotalCents) {
    throw validationFailed([{ field: 'tip', message: `must be at most ${fromCents(bill.subtotalCents).toFixed(2)}, the bill's total` }]);
  }
  return { amountCents, tipCents };
}

export interface GuestBillCents {
  subtotalCents: number;
  dueCents: number;
  lines: Array<{ id: string; cents: number; voided: boolean }>;
}

function linesPrice(bill: GuestBillCents, lineIds: string[]): number {
  const live = bill.lines.filter((l) => !l.voided);
  const unknown = lineIds.filter((id) => !live.some((l) => l.id === id));
  if (unknown.length || new Set(lineIds).size !== lineIds.length) throw validationFailed([{ field: 'line_ids', message: 'must be lines of this bill, each once' }]);
  const all = live.reduce((sum, l) => sum + l.cents, 0);
  const mine = live.filter((l) => lineIds.includes(l.id)).reduce((sum, l) => sum + l.cents, 0);
  return all === 0 ? 0 : Math.round((mine * bill.subtotalCents) / all);
}
