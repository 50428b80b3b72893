import { useState } from 'preact/hooks';
import { direct as api, usePolled } from '../api.js';

// The tablet remembers, per station, the last fallback ticket it told the cooks about (dismissed).
const seenKey = (station: string) => `comanda.paperSeen.${station}`;
const timeOfDay = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const age = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`);

/**
 * The station's paper (issue 61), under the 86 strip: when the screen comes back after its printer
 * took over, how many tickets went to paper meanwhile and when, until a cook dismisses it; and what
 * waits for the station's printer (down, out of paper), each with its age and the printer's error,
 * only while something does. Read every few seconds from GET /stations/{id}/paper.
 */
export function StationPaper(props: { station: string }) {
  const [seen, setSeen] = useState(() => Number(localStorage.getItem(seenKey(props.station))) || undefined);
  const paper = usePolled(() => api.GET('/stations/{id}/paper', { params: { path: { id: props.station }, query: seen ? { since: seen } : {} } }), 5_000, [seen]);
  const away = paper.data?.printed_while_away;
  const waiting = paper.data?.waiting ?? [];
  const dismiss = (lastAt: number) => {
    localStorage.setItem(seenKey(props.station), String(lastAt));
    setSeen(lastAt);
  };
  return (
    <>
      {away && (
        <div id="paper-away" role="status">
          <span>
            Printed while this screen was away: {away.count} {away.count === 1 ? 'ticket' : 'tickets'},{' '}
            {[...new Set([timeOfDay(away.first_at), timeOfDay(away.last_at)])].join('–')}
          </span>
          <button id="paper-away-dismiss" type="button" onClick={() => dismiss(away.last_at)}>OK</button>
        </div>
      )}
      {waiting.length > 0 && (
        <section id="paper-queue" aria-label="Waiting to print">
          <strong>{waiting.length} waiting for {paper.data?.printer?.name ?? 'the printer'}</strong>
          {waiting.map((j) => (
            <span key={j.id} class="job" data-job={j.id}>
              {j.title} · {age(j.age_seconds)}{j.last_error ? ` · ${j.last_error}` : ''}
            </span>
          ))}
        </section>
      )}
    </>
  );
}
