import { comanda, online } from '../network.js';
import { signal } from '../signal.js';
import { createdIds } from './ids.js';
import { type Entry, type Refusal, device } from './store.js';

/**
 * The outbox: every write of the POS is kept on the tablet (IndexedDB) with its Idempotency-Key
 * before it is sent, and sent one at a time, oldest first, until the server answers it. A reload, a
 * closed tab or a restart leaves it where it was; the key goes with it, so the server applies it once
 * however often it is sent. A screen waits for the answer while the network is there; when it is
 * not, the screen is told the write is kept (a 202) and goes on.
 */

/** The writes waiting (in order) and what the server refused after the screen had moved on. */
export const waiting = signal<Entry[]>([]);
export const refusals = signal<Refusal[]>([]);
/** Why the oldest write is not being sent (another member's, or no session): shown on the banner. */
export const held = signal<string | null>(null);

let member: { id: string; name: string } | null = null;
const screens = new Map<string, (answer: Response) => void>();
let sending = false;
/** Resolved when the network may be back (the browser says so, or a read went through). */
let wake: () => void = () => undefined;

/** The menu's name of a dish (set by the app: the outbox does not read the menu itself). */
let nameOf: (dishId: string) => string | undefined = () => undefined;
export const useDishNames = (names: typeof nameOf) => {
  nameOf = names;
};

/** The dishes a write's body names, with the menu's names now. */
function dishNames(body: unknown): Record<string, string> | undefined {
  if (!Array.isArray(body)) return undefined;
  const named = body.flatMap((d: { dish_id?: unknown }) => {
    const name = typeof d.dish_id === 'string' ? nameOf(d.dish_id) : undefined;
    return name ? [[d.dish_id as string, name] as const] : [];
  });
  return named.length ? Object.fromEntries(named) : undefined;
}

/** A screen waits this long for an answer before it is told the write is kept and goes on. */
const PATIENCE_MS = 8_000;

/** Reads the outbox and the refusals again into the signals (the banner, the overlays read them). */
async function reload(): Promise<void> {
  const db = await device();
  waiting.set(await db.getAll('outbox'));
  refusals.set(await db.getAll('refusals'));
}

/** Who is signed in: only their writes are sent (null: nobody, the outbox waits). */
export function signedInAs(who: { id: string; name: string } | null): void {
  member = who;
  void reload().then(send);
}

/** Keeps a write and answers it: the server's answer, or a 202 "kept" when it cannot be had now. */
export async function enqueue(request: Request): Promise<Response> {
  if (!member) return comanda.fetch(request);
  const url = new URL(request.url);
  const path = `${url.pathname}${url.search}`;
  const text = await request.clone().text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  const headers = Object.fromEntries(request.headers);
  const key = headers['idempotency-key'] ??= crypto.randomUUID();
  const entry: Entry = { key, method: request.method, path, body, headers, userId: member.id, at: Date.now(), created: await createdIds(member.id, key, request.method, path, body), dishNames: dishNames(body) };
  entry.seq = await (await device()).add('outbox', entry);
  await reload();
  const answered = new Promise<Response>((resolve) => screens.set(key, resolve));
  void send();
  if (!online.get()) keep(entry);
  setTimeout(() => keep(entry), PATIENCE_MS);
  return answered;
}

/** Tells a screen still waiting that its write is kept and will be sent (it no longer waits). */
function keep(entry: Entry): void {
  const screen = screens.get(entry.key);
  if (!screen) return;
  screens.delete(entry.key);
  const location = entry.created.order ? `/orders/${entry.created.order}` : entry.path.split('?')[0];
  screen(Response.json({ message: 'Kept on this tablet: sent as soon as the network is back', location }, { status: 202 }));
}

const pause = (ms: number) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  wake = () => {
    clearTimeout(timer);
    resolve();
  };
});
addEventListener('online', () => wake());
online.subscribe(() => online.get() && wake());

/** Sends the outbox, oldest first, one at a time; one sender per page. */
async function send(): Promise<void> {
  if (sending) return;
  sending = true;
  try {
    for (let failures = 0; ;) {
      const head = waiting.get()[0];
      if (!head) return held.set(null);
      if (!member || head.userId !== member.id) return held.set(member ? 'the waiter who made them signs in' : 'you sign in');
      held.set(null);
      let answer: Response;
      try {
        answer = await comanda.fetch(new Request(`${location.origin}${head.path}`, {
          method: head.method, headers: head.headers, credentials: 'include', ...(head.body === undefined ? {} : { body: JSON.stringify(head.body) }),
        }));
      } catch {
        // The network is away: every screen waiting is told its write is kept; try again later.
        for (const e of waiting.get()) keep(e);
        await pause(Math.min(10_000, 1_000 * 2 ** failures++));
        continue;
      }
      // The session could not be renewed: the PIN pad shows; the outbox waits for the sign-in.
      if (answer.status === 401) return held.set('you sign in');
      // A server in trouble is asked again, the key unchanged.
      if (answer.status >= 500) {
        await pause(Math.min(10_000, 1_000 * 2 ** failures++));
        continue;
      }
      failures = 0;
      await settle(head, answer);
    }
  } finally {
    sending = false;
  }
}

/** The server answered: the write leaves the outbox; a refusal no screen waits for is kept to show. */
async function settle(head: Entry, answer: Response): Promise<void> {
  const db = await device();
  const refused: Refusal[] = [];
  const screen = screens.get(head.key);
  screens.delete(head.key);
  if (!answer.ok && !screen) refused.push({ entry: head, status: answer.status, message: await messageOf(answer), at: Date.now() });
  // One transaction, nothing else awaited inside it (IndexedDB commits a transaction left idle).
  const tx = db.transaction(['outbox', 'refusals'], 'readwrite');
  await tx.objectStore('outbox').delete(head.seq!);
  // An order the server did not create: what was written on it afterwards cannot be sent either.
  if (!answer.ok && head.created.order) {
    for (const later of waiting.get().slice(1).filter((e) => e.path.startsWith(`/orders/${head.created.order}/`))) {
      await tx.objectStore('outbox').delete(later.seq!);
      screens.delete(later.key);
      refused.push({ entry: later, status: 0, message: 'Not sent: the order it belongs to was refused', at: Date.now() });
    }
  }
  for (const r of refused) await tx.objectStore('refusals').add(r);
  await tx.done;
  await reload();
  screen?.(answer);
}

/** What the server said, in the waiter's words where the API's are a form's (a 400's fields). */
async function messageOf(answer: Response): Promise<string> {
  try {
    const body = (await answer.clone().json()) as { message?: unknown; errors?: Array<{ field?: unknown; message?: unknown }> };
    const fields = Array.isArray(body.errors) ? body.errors : [];
    // A dish the menu listed before and has taken off since (a sold-out dish is a 409 naming it).
    if (fields.some((f) => typeof f.field === 'string' && f.field.endsWith('.dish_id') && f.message === 'must be a dish on the menu')) {
      return 'no longer on the menu (taken off since)';
    }
    const detail = fields.map((f) => `${String(f.field)} ${String(f.message)}`).join('; ');
    if (typeof body.message === 'string') return detail ? `${body.message}: ${detail}` : body.message;
    return `${answer.status} ${answer.statusText}`;
  } catch {
    return `${answer.status} ${answer.statusText}`;
  }
}

/** The waiter has read a refusal and done what it said. */
export async function dismiss(id: number): Promise<void> {
  await (await device()).delete('refusals', id);
  await reload();
}
