import { type Paper, columnsOf, encoderFor } from './paper.js';

/**
 * What a bill or a receipt says, in order, as the API's receipt builds it (the figures are the bill's
 * own, never worked out again here): the paper only lays it out.
 */
export type ReceiptRow =
  | { kind: 'title' | 'center' | 'rule' | 'text'; text?: string }
  | { kind: 'amount'; label: string; cents: number; strong?: boolean }
  /** A QR code of `text` (a link) with the link under it, centred; on a screen or in plain text the link alone. */
  | { kind: 'qr'; text: string };

export const receiptAmount = (cents: number): string => (cents < 0 ? '-' : '') + (Math.abs(cents) / 100).toFixed(2);

/** A label and its amount on one line, the label shortened to leave the amount room. */
export function amountLine(label: string, cents: number, columns: number): string {
  const value = receiptAmount(cents);
  const room = columns - value.length - 1;
  const shown = label.length > room ? `${label.slice(0, room - 1)}…` : label;
  return shown + ' '.repeat(columns - shown.length - value.length) + value;
}

/** The rows on the till's paper: the restaurant's name large, totals in bold, amounts aligned right. */
export function renderReceipt(paper: Paper, rows: readonly ReceiptRow[]): Uint8Array {
  const columns = columnsOf(paper.paperWidth);
  const e = encoderFor(paper);
  for (const row of rows) {
    switch (row.kind) {
      case 'title':
        e.align('center').bold(true).size(2, 2).line(row.text ?? '').size(1, 1).bold(false).align('left');
        break;
      case 'center':
        e.align('center').line(row.text ?? '').align('left');
        break;
      case 'rule':
        e.line('-'.repeat(columns));
        break;
      case 'text':
        e.line(row.text ?? '');
        break;
      case 'amount':
        e.bold(row.strong === true).line(amountLine(row.label, row.cents, columns)).bold(false);
        break;
      case 'qr':
        // Model 2, 5-dot modules: a 60-character link is 41 modules, about 26 mm, read by a phone at
        // arm's length and inside 58 mm paper; error level M survives a fold or a stain.
        e.align('center').qrcode(row.text, { model: 2, size: 5, errorlevel: 'm' }).newline();
        // The link under it in whole lines of the paper's width: the encoder's own wrapping breaks at a
        // hyphen (a token has them), and the text receipt cuts at its width: the two read the same.
        for (const part of row.text.match(new RegExp(`.{1,${columns}}`, 'g')) ?? []) e.line(part);
        e.align('left');
        break;
    }
  }
  return e.newline(3).cut().encode();
}
