/** A report's answer as GET /reports/{name} gives it: named sections of rows. */
export type Cell = string | number | null;
export type Row = Record<string, Cell>;
export interface ReportAnswer { report: string; time_zone: string; from: string | null; to: string | null; sections: Record<string, Row[]> }

/** The columns of a section: its rows' keys in first-seen order, as the CLI prints them. */
export function columns(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

const csvCell = (cell: Cell | undefined): string => {
  if (cell === null || cell === undefined) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * Some sections of a report as CSV, byte for byte the blocks `npm run analytics -- --format csv`
 * writes for them (packages/analytics/src/output/text.ts; the e2e test holds them equal): RFC 4180
 * with CRLF, a header row `report,section,<columns>` per section, an empty line between blocks.
 * Built here from the JSON on screen, so the file is the figures the manager sees.
 */
export function sectionsCsv(answer: ReportAnswer, sections: readonly string[]): string {
  const blocks = sections.map((section) => {
    const rows = answer.sections[section] ?? [];
    const cols = columns(rows);
    const lines = [['report', 'section', ...cols].map(csvCell).join(',')];
    for (const row of rows) lines.push([answer.report, section, ...cols.map((c) => row[c])].map(csvCell).join(','));
    return lines.join('\r\n');
  });
  return `${blocks.join('\r\n\r\n')}\r\n`;
}

/** Hands the browser a file to save, named for the report, its sections and its days. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
