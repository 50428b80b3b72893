import type { Cell, ReportResult, Row } from '../report.js';

/** The columns of a section: the keys of its rows in first-seen order (rows of a section share them). */
export function columns(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** JSON: one report as an object, several as `{reports: [...]}`; two-space indent, a final newline. */
export function toJson(results: readonly ReportResult[]): string {
  return `${JSON.stringify(results.length === 1 ? results[0] : { reports: results }, null, 2)}\n`;
}

const csvCell = (cell: Cell | undefined): string => {
  if (cell === null || cell === undefined) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * CSV (RFC 4180, CRLF): one block per report section, each with its header row (`report`, `section`,
 * then the section's columns), blocks separated by an empty line.
 */
export function toCsv(results: readonly ReportResult[]): string {
  const blocks: string[] = [];
  for (const r of results) {
    for (const [section, rows] of Object.entries(r.sections)) {
      const cols = columns(rows);
      const lines = [['report', 'section', ...cols].map(csvCell).join(',')];
      for (const row of rows) lines.push([r.report, section, ...cols.map((c) => row[c])].map(csvCell).join(','));
      blocks.push(lines.join('\r\n'));
    }
  }
  return `${blocks.join('\r\n\r\n')}\r\n`;
}

/** Aligned plain-text tables for a terminal: numbers right-aligned. */
export function toTable(results: readonly ReportResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const range = r.from || r.to ? ` ${r.from ?? '…'} to ${r.to ?? '…'}` : '';
    out.push(`${r.title} (${r.report} v${r.version}, ${r.time_zone}${range})`);
    for (const [section, rows] of Object.entries(r.sections)) {
      out.push('', `  ${section.replaceAll('_', ' ')}`);
      if (rows.length === 0) {
        out.push('  (nothing)');
        continue;
      }
      const cols = columns(rows);
      const cells = rows.map((row) => cols.map((c) => (row[c] === null || row[c] === undefined ? '' : String(row[c]))));
      const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
      const numeric = cols.map((c) => rows.every((row) => row[c] === null || typeof row[c] === 'number'));
      const pad = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
      out.push(`  ${cols.map(pad).join('  ')}`.trimEnd());
      for (const line of cells) out.push(`  ${line.map(pad).join('  ')}`.trimEnd());
    }
    out.push('', '');
  }
  return out.join('\n');
}
