import { useEffect, useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct as api } from '../api.js';

type Dish = paths['/dishes']['get']['responses'][200]['content']['application/json'][number];

/**
 * The "86" strip above the kitchen's board: the dishes sold out now, those counted with what is left,
 * and those outside their hours with when they are next served (breakfast "from Tue 07:00"), read every
 * few seconds (a 304 while nothing changed), so the line knows what not to fire or prepare.
 */
export function EightySix() {
  const [dishes, setDishes] = useState<Dish[]>([]);
  useEffect(() => {
    let etag: string | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const once = async () => {
      try {
        const { data, response } = await api.GET('/dishes', { params: { query: { all: true } }, headers: etag ? { 'if-none-match': etag } : {} });
        if (!stopped && response.ok && response.status !== 304) {
          etag = response.headers.get('etag') ?? undefined;
          setDishes(data ?? []);
        }
      } catch {
        // Offline: the banner says so; the list stays as last read.
      } finally {
        if (!stopped) timer = setTimeout(once, 5_000);
      }
    };
    void once();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  const out = dishes.filter((d) => d.sold_out);
  const counted = dishes.filter((d) => !d.sold_out && d.remaining !== null);
  const later = dishes.filter((d) => !d.sold_out && d.available === false);
  if (out.length + counted.length + later.length === 0) return null;
  return (
    <div id="eighty-six" aria-label="Sold out">
      <strong>86</strong>
      {out.map((d) => <span key={d.id} class="out" data-dish-id={d.id}>{d.name}</span>)}
      {counted.map((d) => <span key={d.id} class="left" data-dish-id={d.id}>{d.name} · {d.remaining} left</span>)}
      {later.map((d) => <span key={`${d.id}-later`} class="later" data-later-dish-id={d.id}>{d.name} · from {d.available_from}</span>)}
    </div>
  );
}
