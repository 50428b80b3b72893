import { useEffect, useRef } from 'preact/hooks';

/** A bar chart of a report column (bar-plot.ts draws it; loaded with the first chart). */
export function BarChart(props: { id: string; title: string; labels: string[]; values: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let undraw: (() => void) | undefined;
    let gone = false;
    void import('./bar-plot.js').then(({ drawBars }) => {
      if (!gone && box.current) undraw = drawBars(box.current, props.title, props.labels, props.values);
    });
    return () => {
      gone = true;
      undraw?.();
    };
  }, [props.labels, props.values]);
  return (
    <figure class="report-chart">
      <figcaption>{props.title}</figcaption>
      <div id={props.id} class="report-plot" ref={box} />
    </figure>
  );
}
