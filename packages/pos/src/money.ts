import { api, signal } from './api.js';

/** The restaurant's base currency, read once after sign-in: every amount on the screens is in it. */
export const currency = signal<{ acronym: string; decimals: number }>({ acronym: 'MXN', decimals: 2 });

export async function loadCurrency(): Promise<void> {
  const [base, all] = await Promise.all([api.GET('/base-currency'), api.GET('/currencies', { params: { query: { all: true } } })]);
  const found = all.data?.find((c) => c.id === base.data?.currency_id);
  if (found) currency.set({ acronym: found.acronym, decimals: found.decimals });
}

export function money(amount: number): string {
  const { acronym, decimals } = currency.get();
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ${acronym}`;
}

/** An amount typed on a keypad ("12.5") as a number of the currency, or null when it is not one. */
export function parseAmount(text: string): number | null {
  if (!/^\d+(\.\d{0,2})?$/.test(text)) return null;
  return Number(text);
}

/** An amount that may take money off ("-5" for "no cheese"), or null when it is not one. */
export function parseSignedAmount(text: string): number | null {
  const amount = parseAmount(text.replace(/^-/, ''));
  return amount === null ? null : text.startsWith('-') ? -amount : amount;
}

export const sats = (n: number) => `${n.toLocaleString('en-US')} sats`;

/** "12 min", "1 h 05" since an ISO time. */
export function age(since: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
}

/** "20:14": the time of day of a moment (when a write was kept on the tablet). */
export const clock = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
