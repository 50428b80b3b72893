// @ts-check
// Cards of the kitchen display: one per ticket (a station's board) or per order (the expo screen).
// Built whole for one ticket; the board replaces only the cards whose ticket changed. Type-checked
// against the API's generated types (packages/client/tsconfig.pages.json).

/** @typedef {import('../../../../packages/client/src/generated/schema.js').components['schemas']['KitchenTicket']} KitchenTicket */
/** @typedef {KitchenTicket['lines'][number]} TicketLine */
/** @typedef {{ lines: TicketLine[], first: TicketLine }} LineGroup */
/** @typedef {{ id: string, tickets: KitchenTicket[] }} OrderOnExpo */
/** @typedef {string | Node | null | undefined | false} Child */

/**
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 */
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  node.append(.../** @type {Array<string | Node>} */ (children.filter((c) => c !== null && c !== undefined && c !== false)));
  return node;
};

/** @type {Record<string, string>} */
const LABEL = { sent: 'NEW', in_progress: 'COOKING', done: 'DONE', cancelled: 'CANCELLED' };
/** @param {TicketLine} l */
const finished = (l) => l.kitchen_status === 'done' || l.kitchen_status === 'cancelled';
/** @param {KitchenTicket} t */
export const ticketReady = (t) => t.lines.every(finished);

/**
 * m:ss, or h:mm:ss past an hour (a ticket forgotten on the board).
 * @param {number} ms
 */
export const clock = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  /** @param {number} n */
  const pad = (n) => String(n).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
};

/**
 * The order's number of its business day; null for orders placed before numbers.
 * @param {KitchenTicket} t
 */
export const orderNumber = (t) => t.order_number ?? null;
/** @param {KitchenTicket} t */
export const tableLabel = (t) => t.table_name ?? 'Take-away';

/**
 * Identical lines without notes, in the same status, shown once as "2 ×" (the domain has one line per
 * unit). A line with notes always stands alone: the note is for that one plate.
 * @param {TicketLine[]} lines
 * @returns {LineGroup[]}
 */
export function groupLines(lines) {
  /** @type {LineGroup[]} */
  const groups = [];
  /** @type {Map<string, LineGroup>} */
  const byKey = new Map();
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

/**
 * Portions of a group of lines: each line carries its quantity (1 on tickets fired before quantities).
 * @param {LineGroup} g
 */
const portions = (g) => g.lines.reduce((n, l) => n + (l.quantity ?? 1), 0);

/**
 * Seat, course (after the first), modifiers and allergens: what the cook reads after the dish's name.
 * @param {TicketLine} l
 */
const detail = (l) => [
  l.seat ? `seat ${l.seat}` : '', (l.course ?? 1) > 1 ? `course ${l.course}` : '', ...(l.modifiers ?? []), ...(l.allergens ?? []).map((a) => `⚠ ${a}`),
].filter(Boolean).join(' · ');

/**
 * A station's ticket: header (tap = bump) and its lines (tap = one more done).
 * @param {KitchenTicket} t
 * @param {{ autoBumpMs: number }} options
 */
export function ticketCard(t, { autoBumpMs }) {
  const number = orderNumber(t);
  const auto = autoBumpMs > 0 && t.status === 'open' && t.ready_at ? Date.parse(t.ready_at) + autoBumpMs : null;
  const header = el('button', { type: 'button', class: 'ticket-header', title: 'Tap to bump', dataset: { action: 'bump' } },
    el('span', { class: 'table' }, number !== null ? el('span', { class: 'number' }, `#${number} `) : null, tableLabel(t)),
    el('span', { class: 'timer', dataset: { fired: t.fired_at } }, ''),
    el('span', { class: 'who' }, t.waiter),
    el('span', { class: 'hint', ...(auto ? { dataset: { auto: String(auto) } } : {}) }, auto ? '' : 'tap to bump'));
  const lines = el('ul', { class: 'lines' }, ...groupLines(t.lines).map((g) => {
    const l = g.first;
    const open = !finished(l);
    return el('li', {}, el('button', {
      type: 'button', class: `line ${l.kitchen_status}`, dataset: { lineId: (g.lines.find((x) => !finished(x)) ?? l).line_id, ...(open ? { action: 'done' } : {}) },
      ...(open ? {} : { 'aria-disabled': 'true' }),
    },
    el('span', { class: 'status' }, LABEL[l.kitchen_status] ?? l.kitchen_status),
    portions(g) > 1 ? el('span', { class: 'qty' }, `${portions(g)} × `) : null,
    el('span', { class: 'dish' }, l.dish_name),
    detail(l) ? el('span', { class: 'notes' }, detail(l)) : null,
    l.notes ? el('span', { class: 'notes' }, l.notes) : null));
  }));
  return el('article', { class: `ticket${ticketReady(t) ? ' ready' : ''}`, dataset: { ticketId: t.id } }, header, lines);
}

/**
 * The expo screen's card: one order, each station's ticket in it; highlighted once every one is ready.
 * @param {OrderOnExpo} order
 * @param {(stationId: string) => string} stationName
 */
export function orderCard(order, stationName) {
  const first = order.tickets[0];
  const ready = order.tickets.every(ticketReady);
  const number = orderNumber(first);
  const header = el('button', { type: 'button', class: 'ticket-header', title: ready ? 'Tap when served: bumps every ticket' : 'Still cooking', dataset: { action: ready ? 'serve' : 'none' } },
    el('span', { class: 'table' }, number !== null ? el('span', { class: 'number' }, `#${number} `) : null, tableLabel(first)),
    el('span', { class: 'timer', dataset: { fired: first.fired_at } }, ''),
    el('span', { class: 'who' }, first.waiter),
    el('span', { class: 'hint' }, ready ? 'READY · tap when served' : `${order.tickets.filter(ticketReady).length}/${order.tickets.length} stations ready`));
  const sections = order.tickets.map((t) => el('section', { class: `station${ticketReady(t) ? ' ready' : ''}` },
    el('h3', {}, stationName(t.station_id), ticketReady(t) ? ' ✓' : ''),
    el('ul', { class: 'lines' }, ...groupLines(t.lines).map((g) => el('li', { class: `line ${g.first.kitchen_status}` },
      el('span', { class: 'status' }, LABEL[g.first.kitchen_status]),
      portions(g) > 1 ? el('span', { class: 'qty' }, `${portions(g)} × `) : null,
      el('span', { class: 'dish' }, g.first.dish_name))))));
  return el('article', { class: `ticket order${ready ? ' ready' : ''}`, dataset: { orderId: order.id } }, header, ...sections);
}
