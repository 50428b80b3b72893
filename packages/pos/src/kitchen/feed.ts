import type { paths } from '@comanda/client';
import { direct as api, online, signal, type Schema } from '../api.js';
import { Board } from './board.js';

export type KitchenTicket = Schema<'KitchenTicket'>;
/** The expo screen's card: one order, its open tickets of every station. */
export interface OrderOnExpo { id: string; tickets: KitchenTicket[] }

/** The station list's last entry: every station's tickets by order. */
export const EXPO = 'expo';
/** How many bumped tickets a station's screen keeps, to recall. */
const RECALLABLE = 10;
/** How often a catch-up is put on the board while it arrives. */
const CATCH_UP_MS = 100;

/** Oldest fired first; the id breaks ties, so the order is the same on every screen. */
export const byAge = (a: KitchenTicket, b: KitchenTicket) => Date.parse(a.fired_at) - Date.parse(b.fired_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One screen's live view of the kitchen (a station, or every station for the expo screen), fed by
 * `GET /kitchen/events` (Server-Sent Events: the typed client has no streams). It keeps only what the
 * board shows: open tickets and, for a station, the last bumped (to recall); each with the log position
 * of the change that produced it, so an older message never overwrites a newer one. A reconnect resumes
 * from the last position seen, so nothing is lost while the screen is offline.
 */
export class KitchenFeed {
  readonly expo: boolean;
  /** A station's cards (one per ticket). */
  readonly board = new Board<KitchenTicket>(byAge);
  /** The expo screen's cards (one per order). */
  readonly orders = new Board<OrderOnExpo>((a, b) => byAge(a.tickets[0]!, b.tickets[0]!));
  /** Counts up whenever the screen has something new to show (at most once per frame). */
  readonly changed = signal(0);
  autoBumpMs = 0;
  /** Once the first catch-up is on the board ("No open tickets" is not said before). */
  caughtUp = false;
  /** Called for a ticket that arrives live (not in the catch-up): the chime. */
  onNewTicket: () => void = () => undefined;

  private readonly known = new Map<string, { ticket: KitchenTicket; position: bigint }>();
  private readonly byOrder = new Map<string, Set<string>>();
  /** Tickets tapped to bump, kept off the board until the server answers. */
  private readonly bumping = new Set<string>();
  private lastEventId: string | null = null;
  private source: EventSource | null = null;
  private live = false;
  private retry = 0;
  private scheduled = false;
  private closed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  readonly station: string;
  private readonly stationName: (id: string) => string;

  constructor(station: string, stationName: (id: string) => string) {
    this.station = station;
    this.stationName = stationName;
    this.expo = station === EXPO;
  }

  get size(): number {
    return this.expo ? this.orders.size : this.board.size;
  }

  /** The last bumped tickets of the station, most recent first (the recall list). */
  bumped(): KitchenTicket[] {
    return [...this.known.values()].map((x) => x.ticket).filter((t) => t.status === 'done').sort((a, b) => Date.parse(b.bumped_at!) - Date.parse(a.bumped_at!));
  }

  ticket(id: string): KitchenTicket | undefined {
    return this.known.get(id)?.ticket;
  }

  /** The open tickets of an order on the expo screen. */
  ticketsOf(orderId: string): string[] {
    return [...(this.byOrder.get(orderId) ?? [])];
  }

  connect(): void {
    if (this.closed) return;
    this.source?.close();
    this.live = false;
    const query: NonNullable<paths['/kitchen/events']['get']['parameters']['query']> = this.expo ? {} : { station_id: this.station };
    if (this.lastEventId) query.last_event_id = this.lastEventId;
    if (!performance.getEntriesByName('kitchen:connect').length) performance.mark('kitchen:connect');
    const source = new EventSource(`/kitchen/events?${new URLSearchParams(query)}`);
    this.source = source;
    source.addEventListener('open', () => {
      this.retry = 0;
      online.set(true);
    });
    source.addEventListener('settings', (event) => {
      this.autoBumpMs = (JSON.parse(event.data) as { auto_bump_minutes: number }).auto_bump_minutes * 60_000;
      this.schedule();
    });
    source.addEventListener('reset', () => {
      this.known.clear();
      this.byOrder.clear();
      this.board.clear();
      this.orders.clear();
      this.schedule();
    });
    source.addEventListener('ticket', (event) => this.received(JSON.parse(event.data) as KitchenTicket, event.lastEventId));
    source.addEventListener('caught-up', () => {
      this.live = true;
      this.caughtUp = true;
      this.flush();
      // Marked after the catch-up's first frame (the render runs before it): what the bench times.
      if (!performance.getEntriesByName('kitchen:painted').length) {
        requestAnimationFrame(() => {
          performance.mark('kitchen:painted');
          document.body.dataset.painted = 'true';
        });
      }
    });
    source.addEventListener('error', () => this.reconnect());
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.source?.close();
    this.source = null;
  }

  /**
   * The browser would retry by itself, but not after a 401 (an access token lasts a minute): the
   * session is renewed through the typed client first (a refused refresh signs the screen out).
   */
  private reconnect(): void {
    this.source?.close();
    this.source = null;
    online.set(false);
    this.retryTimer = setTimeout(async () => {
      const me = await api.GET('/auth/me').catch(() => null);
      if (me?.response.status === 401) return;
      this.connect();
    }, Math.min(5000, 500 * 2 ** this.retry++));
  }

  private received(ticket: KitchenTicket, id: string): void {
    const position = BigInt(id);
    const known = this.known.get(ticket.id);
    if (known && known.position >= position) return;
    if (!this.lastEventId || BigInt(this.lastEventId) < position) this.lastEventId = id;
    if (!this.expo && ticket.station_id !== this.station) return;
    // Only what the board shows is kept: open tickets, and (for a station) the last bumped, for recall.
    if (ticket.status === 'closed' || (this.expo && ticket.status !== 'open')) this.known.delete(ticket.id);
    else this.known.set(ticket.id, { ticket, position });
    this.schedule();
    if (this.expo) return this.expoChanged(ticket);
    if (ticket.status === 'open') {
      if (this.live && !known) this.onNewTicket();
      if (!this.bumping.has(ticket.id)) this.board.set(ticket);
    } else this.board.delete(ticket.id);
    if (ticket.status === 'done') for (const t of this.bumped().slice(RECALLABLE)) this.known.delete(t.id);
  }

  private expoChanged(ticket: KitchenTicket): void {
    const orderId = ticket.order_id;
    const ids = this.byOrder.get(orderId) ?? new Set<string>();
    if (this.known.has(ticket.id)) ids.add(ticket.id);
    else ids.delete(ticket.id);
    if (ids.size === 0) {
      this.byOrder.delete(orderId);
      return this.orders.delete(orderId);
    }
    this.byOrder.set(orderId, ids);
    const open = [...ids].map((id) => this.known.get(id)!.ticket);
    open.sort((a, b) => this.stationName(a.station_id).localeCompare(this.stationName(b.station_id)) || byAge(a, b));
    this.orders.set({ id: orderId, tickets: open });
  }

  /** A bump tapped: the card leaves at once, before the server answers. */
  bumpStarted(id: string): void {
    this.bumping.add(id);
    this.board.delete(id);
    this.flush();
  }

  /** The server answered: a refused bump puts the card back. */
  bumpEnded(id: string, ok: boolean): void {
    this.bumping.delete(id);
    const t = this.ticket(id);
    if (!ok && t?.status === 'open') {
      this.board.set(t);
      this.schedule();
    }
  }

  /**
   * Once per frame while live. During a catch-up (thousands of tickets at first, what was missed after
   * a reconnect) every few frames: the board fills while the rest is still on its way, without
   * rendering it again for each frame's handful of tickets. A hidden tab gets no animation frames, so
   * it keeps up on a timer.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (!this.live) setTimeout(() => this.flush(), CATCH_UP_MS);
    else if (document.hidden) setTimeout(() => this.flush(), 50);
    else requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    this.board.flush();
    this.orders.flush();
    this.changed.set(this.changed.get() + 1);
  }
}
