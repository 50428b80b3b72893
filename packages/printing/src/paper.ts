import type { CodePage, PaperWidth } from '@comanda/domain';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/** What rendering needs of a printer: its paper and its code page. */
export interface Paper {
  paperWidth: PaperWidth;
  codePage: CodePage;
}

/** Characters a line holds in the printer's font A: 32 on 58 mm paper, 42 on 80 mm (as the text receipt has always counted). */
export const columnsOf = (width: PaperWidth): number => (width === 58 ? 32 : 42);

/**
 * A fresh encoder for one piece of paper: initialised (ESC @), in the printer's code page, lines ended
 * by LF alone (CR is a no-op on these printers and only doubles the bytes).
 */
export function encoderFor(paper: Paper): ReceiptPrinterEncoder {
  return new ReceiptPrinterEncoder({ language: 'esc-pos', columns: columnsOf(paper.paperWidth), newline: '\n' })
    .initialize()
    .codepage(paper.codePage);
}

/** A clock time in the restaurant's time zone, as staff read it on paper ("19:42"). */
export const clockTime = (at: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(at);
