import { comanda, online } from '../network.js';
import { overlay } from './overlay.js';
import { waiting } from './outbox.js';
import { device } from './store.js';

/** Reads kept longer than this are dropped when the POS starts (a tablet keeps the least it needs). */
const KEEP_MS = 24 * 3600_000;
const CLOSED = new Set(['completed', 'cancelled']);

/**
 * A read of the POS: from the server, kept on the tablet; with no network, the one kept. Either way
 * the writes still in the outbox are laid over it, so the screens show what the waiter did offline.
 */
export async function read(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = `${url.pathname}${url.search}`;
  const pending = waiting.get();
  // The writes laid over need the whole answer, not a 304.
  if (pending.length > 0) request.headers.delete('if-none-match');
  let answer: Response | undefined;
  try {
    answer = await (online.get() ? comanda.fetch(request) : tryOnce(request));
  } catch (error) {
    const kept = await (await device()).get('reads', path);
    const shown = overlay(path, kept ? kept.body : undefined, pending);
    if (shown === undefined) throw error;
    return shown === null ? new Response(null, { status: 204 }) : Response.json(shown);
  }
  // Only JSON is kept and laid over: a receipt (text/plain) goes to the screen as it came.
  const json = answer.status === 204 || (answer.headers.get('content-type') ?? '').includes('json');
  if (json && (answer.status === 200 || answer.status === 204)) {
    const body: unknown = answer.status === 204 ? null : await answer.clone().json();
    await keep(path, body);
    if (pending.length === 0) return answer;
    const shown = overlay(path, body, pending);
    return shown === null || shown === undefined ? answer : Response.json(shown);
  }
  // An order seated here and not yet sent is not on the server yet.
  const made = answer.status === 404 ? overlay(path, undefined, pending) : undefined;
  return made ? Response.json(made) : answer;
}

/**
 * With the network known away, a read is tried once, not retried: the client's retries would keep
 * the screen empty for seconds before the tablet's copy is shown. A 401 goes through the client (it
 * renews the session); an answer means the network is back.
 */
async function tryOnce(request: Request): Promise<Response> {
  const answer = await fetch(request.clone());
  if (answer.status === 401) return comanda.fetch(request);
  online.set(true);
  return answer;
}

/** Keeps an answer; a closed order's reads are dropped instead (they are no longer needed here). */
export async function keep(path: string, body: unknown): Promise<void> {
  const db = await device();
  const order = body && typeof body === 'object' && 'order' in body ? (body.order as { id: string; status: string }) : undefined;
  if (order && CLOSED.has(order.status)) {
    const tx = db.transaction('reads', 'readwrite');
    for (const p of await tx.store.getAllKeys()) if (p.startsWith(`/orders/${order.id}`)) await tx.store.delete(p);
    return tx.done;
  }
  await db.put('reads', { path, body, at: Date.now() });
}

/** Drops what was kept too long ago, and the session when its member signs out. */
export async function prune(options: { session?: boolean } = {}): Promise<void> {
  const db = await device();
  const tx = db.transaction('reads', 'readwrite');
  for (const r of await tx.store.getAll()) if (r.at < Date.now() - KEEP_MS || (options.session && r.path === '/auth/me')) await tx.store.delete(r.path);
  await tx.done;
}
