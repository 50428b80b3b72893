import { Component } from 'preact';
import type { KitchenTicket, OrderOnExpo } from './feed.js';
import { clock } from './ticker.js';

type Line = KitchenTicket['lines'][number];
interface LineGroup { lines: Line[]; first: Line }

// Colours by age: ?warn=<min> (10) and ?late=<min> (20) on the page's address.
const params = new URLSearchParams(location.search);
const minutes = (name: string, fallback: number) => {
  const v = Number(params.get(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const WARN_MS = minutes('warn', 10) * 60_000;
const LATE_MS = minutes('late', 20) * 60_000;
const ageOf = (ms: number) => (ms >= LATE_MS ? 'late' : ms >= WARN_MS ? 'warn' : 'fresh');

const LABEL: Record<string, string> = { sent: 'NEW', in_progress: 'COOKING', done: 'DONE', cancelled: 'CANCELLED' };
const finished = (l: Line) => l.kitchen_status === 'done' || l.kitchen_status === 'cancelled';
export const ticketReady = (t: KitchenTicket) => t.lines.every(finished);
export const tableLabel = (t: KitchenTicket) => t.table_name ?? 'Take-away';

/**
 * Identical lines without notes, in the same status, shown once as "2 ×" (the domain has one line per
 * unit). A line with notes always stands alone: the note is for that one plate.
 */
export function groupLines(lines: Line[]): LineGroup[] {
  const groups: LineGroup[] = [];
  const byKey = new Map<string, LineGroup>();
  for (const l of lines) {
    // Lines the cook makes the same way, for the same course and seat, show as one with their portions added.
    const key = l.notes ? null : `${l.dish_id}|${l.kitchen_status}|${l.course ?? 1}|${l.seat ?? ''}|${(l.modifiers ?? []).join(',')}`;
    const known = key && byKey.get(key);
    if (known) known.lines.push(l);
    else {
      const g = { lines: [l], first: l };
      groups.push(g);
      if (key) byKey.set(key, g);
    }
  }
  return groups;
}

/** Portions of a group: each line carries its quantity (1 on tickets fired before quantities). */
const portions = (g: LineGroup) => g.lines.reduce((n, l) => n + (l.quantity ?? 1), 0);

/** Seat, course (after the first), modifiers and allergens: what the cook reads after the dish's name. */
const detail = (l: Line) => [
  l.seat ? `seat ${l.seat}` : '', (l.course ?? 1) > 1 ? `course ${l.course}` : '', ...(l.modifiers ?? []), ...(l.allergens ?? []).map((a) => `⚠ ${a}`),
].filter(Boolean).join(' · ');

// Plain functions, not components: a board of thousands of cards pays for every component.

/** What a line shows: status, portions, dish and, on a station's card, details and notes. */
const lineText = (g: LineGroup, details: boolean) => {
  const l = g.first;
  const n = portions(g);
  const more = details ? detail(l) : '';
  return [
    <span class="status">{LABEL[l.kitchen_status] ?? l.kitchen_status}</span>,
    n > 1 && <span class="qty">{`${n} × `}</span>,
    <span class="dish">{l.dish_name}</span>,
    more && <span class="notes">{more}</span>,
    details && l.notes && <span class="notes">{l.notes}</span>,
  ];
};

/**
 * The header's start: the order's number of the day (when it has one), the table, the timer (written
 * by `tickCards`), the waiter.
 */
const tableAndTime = (t: KitchenTicket) => [
  <span class="table">{t.order_number !== null && <span class="number">{`#${t.order_number} `}</span>}{tableLabel(t)}</span>,
  <span class="timer" data-fired={Date.parse(t.fired_at)} />,
  <span class="who">{t.waiter}</span>,
];

/**
 * The timers, auto-bump countdowns and age colours (`data-age`: fresh, warn, late) of the cards under
 * `root`, written in place: every second for all of them, after a render for the new ones (`fresh`,
 * their timers still empty). One pass over the board, as a wall of thousands of timers needs; Preact
 * renders these elements without that text or attribute, so it never undoes what is written here.
 */
export function tickCards(root: ParentNode, now: number, fresh = false): void {
  for (const el of root.querySelectorAll<HTMLElement>(fresh ? '.timer:empty, .hint[data-auto]:empty' : '.timer, .hint[data-auto]')) {
    const auto = el.dataset.auto;
    const ms = auto ? Number(auto) - now : now - Number(el.dataset.fired);
    const text = auto ? `auto-bump ${clock(ms)}` : clock(ms);
    if (el.textContent !== text) el.textContent = text;
    if (auto) continue;
    const card = el.closest('article')!;
    const age = ageOf(ms);
    if (card.dataset.age !== age) card.dataset.age = age;
  }
}

/**
 * A card rendered again only when `changed` says its props did: a new ticket on a board of thousands
 * renders one card. Taps are handled on the board (one listener for every card).
 */
abstract class Card<P> extends Component<P> {
  abstract changed(next: P): boolean;
  override shouldComponentUpdate(next: P) {
    return this.changed(next);
  }
}

/** A station's ticket: the header (tap = bump) and its lines (tap = one more done). */
export class TicketCard extends Card<{ t: KitchenTicket; autoBumpMs: number }> {
  changed(next: { t: KitchenTicket; autoBumpMs: number }) {
    return next.t.version !== this.props.t.version || next.t.id !== this.props.t.id || next.autoBumpMs !== this.props.autoBumpMs;
  }
  override render() {
    const { t, autoBumpMs } = this.props;
    const auto = autoBumpMs > 0 && t.status === 'open' && t.ready_at ? Date.parse(t.ready_at) + autoBumpMs : null;
    return (
      <article class={`ticket${ticketReady(t) ? ' ready' : ''}`} data-ticket-id={t.id}>
        <button type="button" class="ticket-header" title="Tap to bump" data-action="bump">
          {tableAndTime(t)}
          {auto ? <span key={`auto ${auto}`} class="hint" data-auto={auto} /> : <span key="tap" class="hint">tap to bump</span>}
        </button>
        <ul class="lines">
          {groupLines(t.lines).map((g) => {
            const open = !finished(g.first);
            return (
              <li key={g.first.line_id}>
                <button type="button" class={`line ${g.first.kitchen_status}`} data-line-id={(g.lines.find((x) => !finished(x)) ?? g.first).line_id}
                  data-action={open ? 'done' : undefined} aria-disabled={open ? undefined : 'true'}>
                  {lineText(g, true)}
                </button>
              </li>
            );
          })}
        </ul>
      </article>
    );
  }
}

const versions = (o: OrderOnExpo) => o.tickets.map((t) => `${t.id}:${t.version}`).join();

/** The expo screen's card: one order, each station's ticket in it; highlighted once every one is ready. */
export class OrderCard extends Card<{ order: OrderOnExpo; stationName: (id: string) => string }> {
  changed(next: { order: OrderOnExpo }) {
    return versions(next.order) !== versions(this.props.order);
  }
  override render() {
    const { order, stationName } = this.props;
    const readyCount = order.tickets.filter(ticketReady).length;
    const ready = readyCount === order.tickets.length;
    return (
      <article class={`ticket order${ready ? ' ready' : ''}`} data-order-id={order.id}>
        <button type="button" class="ticket-header" title={ready ? 'Tap when served: bumps every ticket' : 'Still cooking'} data-action={ready ? 'serve' : 'none'}>
          {tableAndTime(order.tickets[0]!)}
          <span class="hint">{ready ? 'READY · tap when served' : `${readyCount}/${order.tickets.length} stations ready`}</span>
        </button>
        {order.tickets.map((t) => (
          <section key={t.id} class={`station${ticketReady(t) ? ' ready' : ''}`}>
            <h3>{stationName(t.station_id)}{ticketReady(t) ? ' ✓' : ''}</h3>
            <ul class="lines">
              {groupLines(t.lines).map((g) => <li key={g.first.line_id} class={`line ${g.first.kitchen_status}`}>{lineText(g, false)}</li>)}
            </ul>
          </section>
        ))}
      </article>
    );
  }
}
