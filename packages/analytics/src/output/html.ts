import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ReportDefinition, ReportResult } from '../report.js';
import { columns } from './text.js';

/** Chart.js's UMD bundle, read from node_modules and inlined: the page needs no network to draw. */
function chartLibrary(): string {
  const require = createRequire(import.meta.url);
  // The package's exports do not list the UMD bundle: it sits beside the CommonJS entry.
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

/** JSON inside a <script> element: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replaceAll('<', '\\u003c');

/**
 * One self-contained HTML page: every report's tables, and its charts drawn by Chart.js, whose
 * minified bundle is embedded in the page (no network needed to view it).
 */
export function toHtml(results: readonly ReportResult[], definitions: ReadonlyArray<ReportDefinition<unknown>>, restaurant = 'Comanda'): string {
  const charts: Array<{ id: string; kind: string; title: string; labels: unknown[]; series: Array<{ name: string; values: unknown[] }> }> = [];
  const body: string[] = [];
  for (const r of results) {
    const range = r.from || r.to ? ` · ${r.from ?? '…'} to ${r.to ?? '…'}` : '';
    body.push(`<section><h2>${escapeHtml(r.title)}</h2><p class="meta">${escapeHtml(r.report)} v${r.version} · ${escapeHtml(r.time_zone)}${escapeHtml(range)}</p>`);
    const def = definitions.find((d) => d.name === r.report);
    for (const spec of def?.charts ?? []) {
      const rows = r.sections[spec.section] ?? [];
      if (rows.length === 0) continue;
      const id = `chart-${charts.length}`;
      charts.push({ id, kind: spec.kind, title: spec.title, labels: rows.map((row) => row[spec.label]), series: spec.values.map((v) => ({ name: v, values: rows.map((row) => row[v]) })) });
      body.push(`<figure><canvas id="${id}" role="img" aria-label="${escapeHtml(spec.title)}"></canvas></figure>`);
    }
    for (const [section, rows] of Object.entries(r.sections)) {
      body.push(`<h3>${escapeHtml(section.replaceAll('_', ' '))}</h3>`);
      if (rows.length === 0) {
        body.push('<p class="meta">(nothing)</p>');
        continue;
      }
      const cols = columns(rows);
      body.push('<div class="scroll"><table><thead><tr>', ...cols.map((c) => `<th>${escapeHtml(c)}</th>`), '</tr></thead><tbody>');
      for (const row of rows) {
        body.push('<tr>', ...cols.map((c) => {
          const v = row[c];
          return `<td${typeof v === 'number' ? ' class="n"' : ''}>${v === null || v === undefined ? '' : escapeHtml(String(v))}</td>`;
        }), '</tr>');
      }
      body.push('</tbody></table></div>');
    }
    body.push('</section>');
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(restaurant)} reports</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222;background:#fff}
h1{margin:0 0 8px}section{border-top:2px solid #ddd;margin-top:24px}.meta{color:#666}
figure{margin:12px 0;height:280px;position:relative}table{border-collapse:collapse;margin:6px 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f4f4f4}.scroll{max-height:420px;overflow:auto}
</style></head><body>
<h1>${escapeHtml(restaurant)} reports</h1>
${body.join('\n')}
<script>${chartLibrary()}</script>
<script>
const charts = ${scriptJson(charts)};
const palette = ['#2f6fb0', '#e07b39', '#3a9a5b', '#c0392b', '#8e5fb5', '#b5942f', '#2aa3a3', '#7f7f7f'];
for (const c of charts) {
  const pie = c.kind === 'pie';
  new Chart(document.getElementById(c.id), {
    type: c.kind,
    data: { labels: c.labels, datasets: c.series.map((s, i) => ({ label: s.name, data: s.values,
      backgroundColor: pie ? c.labels.map((_, j) => palette[j % palette.length]) : palette[i % palette.length],
      borderColor: pie ? '#fff' : palette[i % palette.length] })) },
    options: { animation: false, maintainAspectRatio: false, plugins: { title: { display: true, text: c.title } } },
  });
}
document.body.dataset.charts = String(charts.length);
</script>
</body></html>
`;
}
