import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 220;
/** Whole steps only on the x axis: its ticks are rows (days, hours), not a continuous scale. */
const STEPS = [1, 2, 3, 4, 6, 7, 12, 14, 30, 60, 90, 180, 365];

/**
 * Bars of one column of a report section, drawn by uPlot on a canvas: small (about 50 kB minified),
 * fast with a year of days, and it styles its elements through the DOM, which the page's CSP
 * (style-src 'self': no inline <style>) allows; its stylesheet is bundled with ours. Loaded only
 * when a chart is shown, so the waiters' screens do not carry it. Returns how to take it down.
 */
export function drawBars(el: HTMLElement, title: string, labels: string[], values: number[]): () => void {
  const width = () => Math.max(260, el.clientWidth);
  const plot = new uPlot({
    width: width(), height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
    axes: [
      // Ticks as far apart as the widest label (a day: ten characters), so a year's days never overlap.
      { incrs: STEPS, values: (_u, ticks) => ticks.map((i) => labels[i] ?? ''), space: 16 + 7 * Math.max(1, ...labels.map((l) => l.length)) },
      // As wide as its longest label: a year's sales by hour run to seven digits.
      { size: (_u, labels) => 16 + 8 * Math.max(2, ...(labels ?? []).map((l) => l.length)) },
    ],
    series: [{}, { label: title, fill: '#c0392bcc', stroke: '#c0392b', paths: uPlot.paths.bars?.({ size: [0.7, 48] }), points: { show: false } }],
  }, [labels.map((_, i) => i), values], el);
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
  resize.observe(el);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}
