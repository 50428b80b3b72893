import { conflict, validationFailed } from '@comanda/domain';

/** What a guest asks to pay: never an amount of the bill, only which share; the tip is theirs to choose. */
export interface ShareAsk {
  share: 'all' | 'even';
  /** For an even share: how many guests split the bill. */
  guests?: number;
  /** A preset tip, percent of the share. */
  tipPercent?: number;
  /** A tip of the guest's own, in cents. */
  tipCents?: number;
}

/**
 * The server's price of a guest's share, in cents: the whole remainder, or one of n even shares of
 * the bill (its subtotal over n, rounded up to the cent, never more than what remains), and the tip:
 * a percent of the share rounded half up, or the guest's own amount.
 */
export function priceShare(bill: { subtotalCents: number; dueCents: number }, ask: ShareAsk): { amountCents: number; tipCents: number } {
  if (bill.dueCents <= 0) throw conflict('Nothing is left to pay on this bill');
  if (ask.share === 'even' && ask.guests === undefined) throw validationFailed([{ field: 'guests', message: 'is required for an even share' }]);
  if (ask.share === 'all' && ask.guests !== undefined) throw validationFailed([{ field: 'guests', message: 'only goes with an even share' }]);
  if (ask.tipPercent !== undefined && ask.tipCents !== undefined) {
    throw validationFailed([{ field: 'tip', message: 'give a tip percent or a tip amount, not both' }]);
  }
  const amountCents = ask.share === 'all' ? bill.dueCents : Math.min(bill.dueCents, Math.ceil(bill.subtotalCents / ask.guests!));
  const tipCents = ask.tipPercent !== undefined ? Math.round((amountCents * ask.tipPercent) / 100) : (ask.tipCents ?? 0);
  return { amountCents, tipCents };
}
