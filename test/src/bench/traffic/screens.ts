import type { DiningRoom } from './restaurant.js';
import type { ClientProfile, KindProfile } from './profile.js';
import { type Service, Session } from './service.js';
import { acceptOf, polls, urlOf } from './tablet.js';

/** How long a dish takes once its ticket is on the screen, in s of service (divided by the pace). */
export const COOK_SECONDS = Number(process.env.BENCH_POS_COOK_SECONDS ?? 3);

interface KitchenTicket { id: string; status: string; lines: Array<{ line_id: string; kitchen_status: string }> }

/**
 * A kitchen screen as the page (/kitchen) behaves: signed in as the cook, its station's tickets over
 * SSE, and the cook's taps: each line done, then the ticket bumped, a few seconds after the ticket came
 * (`BENCH_POS_COOK_SECONDS`, default 3). Screens alternate between the kitchen and the bar; the screens
 * of a station share its tickets (each ticket is cooked on one of them), so the kitchen's writes follow
 * the tablets' fires, as in the recorded dinner.
 */
export async function kitchenScreen(service: Service, room: DiningRoom, index: number, screens: number, pace: number, closing: AbortSignal): Promise<void> {
  const session = new Session(service, 'kitchen-screen');
  await session.login(room.cook.name, room.cook.pin);
  await session.call('GET /auth/me', 'GET', '/auth/me');
  await session.call('GET /stations', 'GET', '/stations');
  const station = index % 2 === 0 ? room.stations.kitchen : room.stations.bar;
  const mates = index % 2 === 0 ? Math.ceil(screens / 2) : Math.floor(screens / 2);
  const position = Math.floor(index / 2);
  const mine = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0) % mates === position;
  // Each ticket as the stream last sent it (a line voided meanwhile is not cooked).
  const latest = new Map<string, KitchenTicket>();
  const cook = async (id: string) => {
    if (!(await service.wait((COOK_SECONDS * 1000) / pace))) return;
    const cooked = (lineId: string) => ['done', 'cancelled'].includes(latest.get(id)!.lines.find((l) => l.line_id === lineId)?.kitchen_status ?? 'cancelled');
    for (const { line_id } of latest.get(id)!.lines) {
      if (latest.get(id)!.status !== 'open') return;
      if (!cooked(line_id)) await session.call('POST /kitchen/tickets/:id/lines/:lineId/done', 'POST', `/kitchen/tickets/${id}/lines/${line_id}/done`);
    }
    if (latest.get(id)!.status === 'open') await session.call('POST /kitchen/tickets/:id/bump', 'POST', `/kitchen/tickets/${id}/bump`);
  };
  const cooks: Array<Promise<void>> = [];
  while (!service.stopped) {
    const asked = performance.now();
    try {
      const res = await fetch(`${service.url}/kitchen/events?station_id=${station}`, { headers: { cookie: session.cookie(), accept: 'text/event-stream' }, signal: closing });
      service.count('kitchen-screen', 'GET /kitchen/events?station_id', performance.now() - asked, res.status);
      if (res.status === 401) await session.call('POST /auth/refresh', 'POST', '/auth/refresh');
      if (res.status !== 200) throw new Error(`the kitchen's stream answered ${res.status}`);
      let buffer = '';
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += decoder.decode(chunk.value, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut).split('\n');
          buffer = buffer.slice(cut + 2);
          const data = block.find((l) => l.startsWith('data: '));
          if (!block.includes('event: ticket') || !data) continue;
          const ticket = JSON.parse(data.slice(6)) as KitchenTicket;
          const known = latest.has(ticket.id);
          latest.set(ticket.id, ticket);
          if (ticket.status === 'open' && mine(ticket.id) && !known) cooks.push(cook(ticket.id));
        }
      }
    } catch {
      // Closed at the end of the service (or cut: asked again).
    }
    if (!service.stopped) await service.wait(500);
  }
  await Promise.all(cooks);
}

/**
 * A manager's report page (the POS's cashier screen, the shift's running report): the reads the page
 * makes when it opens, at their recorded times, then its polls at the recorded rates. The recorded
 * manager's writes (the shift opened and closed) are not replayed: a restaurant has one shift open, and
 * the bench opens it before the service.
 */
export async function managerPage(service: Service, room: DiningRoom, profile: ClientProfile, index: number): Promise<void> {
  const session = new Session(service, 'manager');
  const manager = room.managers[index % room.managers.length]!;
  await session.login(manager.name, manager.pin);
  const kinds = new Map(profile.kinds.map((k) => [k.kind, k]));
  const turn = new Map<string, number>();
  const urlFor = (kind: KindProfile, value?: string) => {
    const values = Object.values(kind.values ?? {})[0];
    const n = turn.get(kind.kind) ?? 0;
    turn.set(kind.kind, n + 1);
    return urlOf(kind, {}, value ?? values?.[n % values.length]);
  };
  const opening = async () => {
    const start = service.now();
    for (const [at, kind, status] of Object.values(profile.sequences)[index % Object.keys(profile.sequences).length]!) {
      const read = kinds.get(kind);
      if (!read || read.method !== 'GET' || read.role === 'session' || status === null || status >= 400) continue;
      if (!(await service.until(start + at * 1000))) return;
      const url = urlFor(read);
      if (url) await session.call(kind, 'GET', url, { revalidate: read.ifNoneMatch > 0, headers: acceptOf(read) });
    }
  };
  await Promise.all([opening(), ...polls(service, session, profile, urlFor)]);
}
