// The kitchen display: one station's open tickets (or, as the expo screen, every station's by order),
// live over Server-Sent Events. Plain browser JavaScript, no build step.
// Query parameters: station=<id> or station=expo, warn=<min> (10), late=<min> (20).
import { Board } from './board.js';
import { clock, orderCard, tableLabel, ticketCard } from './cards.js';
import { allDay, keepAwake, recallDialog, sound, undoBar } from './extras.js';

const params = new URLSearchParams(location.search);
const minutes = (name, fallback) => {
  const v = Number(params.get(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const WARN_MS = minutes('warn', 10) * 60_000;
const LATE_MS = minutes('late', 20) * 60_000;
const KITCHEN_ROLES = ['kitchen', 'manager', 'admin'];
const EXPO = 'expo';
const RECALLABLE = 10;
const UNDO_SECONDS = 8;
const $ = (id) => document.getElementById(id);

/** Tickets by id with the log position of the change that produced each (never overwrite newer with older). */
const tickets = new Map();
/** Expo: the ids of each order's tickets held. */
const byOrder = new Map();
/** Tickets tapped to bump, hidden until the server answers. */
const bumping = new Set();
let stationNames = new Map();
let autoBumpMs = 0;
let lastEventId = null;
let source = null;
let live = false;
let station = params.get('station') || localStorage.getItem('comanda.station') || '';
let retry = 0;
const chime = sound();
const showUndo = undoBar(UNDO_SECONDS, (id) => post(`/kitchen/tickets/${id}/recall`));

const ageClass = (ms) => (ms >= LATE_MS ? 'late' : ms >= WARN_MS ? 'warn' : 'fresh');
/** A card's timer, colour and auto-bump countdown at `now`; only what changed is written. */
function tick(card, now) {
  const timer = card.querySelector('.timer');
  const ms = now - Date.parse(timer.dataset.fired);
  timer.textContent = clock(ms);
  const age = ageClass(ms);
  if (card.dataset.age !== age) {
    card.classList.remove('fresh', 'warn', 'late');
    card.classList.add(age);
    card.dataset.age = age;
  }
  const hint = card.querySelector('.hint[data-auto]');
  if (hint) hint.textContent = `auto-bump ${clock(Number(hint.dataset.auto) - now)}`;
  return card;
}

const byAge = (a, b) => Date.parse(a.fired_at) - Date.parse(b.fired_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
let board = null;
function makeBoard() {
  const container = $('tickets');
  container.replaceChildren();
  container.classList.toggle('expo', station === EXPO);
  board = station === EXPO
    ? new Board(container, { compare: (a, b) => byAge(a.tickets[0], b.tickets[0]), build: (o) => tick(orderCard(o, (id) => stationNames.get(id) ?? 'Station'), Date.now()), signature: (o) => o.tickets.map((t) => `${t.id}:${t.version}`).join() })
    : new Board(container, { compare: byAge, build: (t) => tick(ticketCard(t, { autoBumpMs }), Date.now()), signature: (t) => `${t.version}:${autoBumpMs}` });
  board.onFlush = afterFlush;
}

// --- the session: access tokens last a minute, so a 401 renews once through the refresh cookie ---
let refreshing = null;
const refresh = () => (refreshing ??= fetch('/auth/refresh', { method: 'POST' }).then((r) => r.ok).finally(() => { refreshing = null; }));

async function api(method, url, body) {
  const init = { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined };
  let res = await fetch(url, init);
  if (res.status === 401 && (await refresh())) res = await fetch(url, init);
  if (res.status === 401) showLogin();
  return res;
}
const post = (url) => api('POST', url).catch(() => { $('offline').hidden = false; });

function showLogin(message = '') {
  if (source) source.close();
  source = null;
  $('login').hidden = false;
  $('tickets').hidden = true;
  $('empty').hidden = true;
  $('station').hidden = $('recall').hidden = $('logout').hidden = $('sound').hidden = $('allday').hidden = true;
  $('login-error').textContent = message;
  $('name').focus();
}

$('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: $('name').value.trim(), pin: $('pin').value }) });
  $('pin').value = '';
  if (!res.ok) return showLogin(res.status === 429 ? 'Too many attempts: wait a minute' : 'Wrong name or PIN');
  await start();
});

$('logout').addEventListener('click', async () => {
  await fetch('/auth/logout', { method: 'POST' });
  showLogin();
});

async function start() {
  const me = await api('GET', '/auth/me');
  if (!me.ok) return showLogin();
  const { role } = await me.json();
  if (!KITCHEN_ROLES.includes(role)) return showLogin('This screen is for kitchen staff');
  $('login').hidden = true;
  $('tickets').hidden = false;
  $('logout').hidden = $('sound').hidden = false;
  const res = await api('GET', '/stations');
  const stations = res.status === 200 ? await res.json() : [];
  if (stations.length === 0) return showLogin('No kitchen stations yet: a manager adds them first');
  stationNames = new Map(stations.map((s) => [s.id, s.name]));
  if (station !== EXPO && !stationNames.has(station)) station = (stations.find((s) => s.is_default) ?? stations[0]).id;
  const select = $('station');
  select.replaceChildren(...stations.map((s) => new Option(s.name, s.id, false, s.id === station)), new Option('Expo · all stations', EXPO, false, station === EXPO));
  select.hidden = false;
  keepAwake();
  restart();
}

$('station').addEventListener('change', (event) => {
  station = event.target.value;
  restart();
});

function restart() {
  tickets.clear();
  byOrder.clear();
  lastEventId = null;
  makeBoard();
  afterFlush();
  connect();
}

// --- live updates: a reconnect resumes from the last change seen, so nothing is lost while offline ---
function connect() {
  localStorage.setItem('comanda.station', station);
  if (source) source.close();
  live = false;
  const query = new URLSearchParams(station === EXPO ? {} : { station_id: station });
  if (lastEventId) query.set('last_event_id', lastEventId);
  if (!performance.getEntriesByName('kitchen:connect').length) performance.mark('kitchen:connect');
  source = new EventSource(`/kitchen/events?${query}`);
  source.addEventListener('open', () => {
    retry = 0;
    $('offline').hidden = true;
  });
  source.addEventListener('settings', (event) => {
    const ms = JSON.parse(event.data).auto_bump_minutes * 60_000;
    if (ms !== autoBumpMs) {
      autoBumpMs = ms;
      board.rebuildAll();
    }
  });
  source.addEventListener('reset', () => {
    tickets.clear();
    byOrder.clear();
    board.clear();
  });
  source.addEventListener('ticket', (event) => received(JSON.parse(event.data), event.lastEventId));
  source.addEventListener('caught-up', () => {
    live = true;
    board.flush();
    if (!performance.getEntriesByName('kitchen:painted').length) {
      requestAnimationFrame(() => {
        performance.mark('kitchen:painted');
        document.body.dataset.painted = 'true';
      });
    }
  });
  source.addEventListener('error', () => {
    // The browser would retry on its own, but not after a 401 (an expired token): we reconnect ourselves.
    source.close();
    source = null;
    $('offline').hidden = false;
    setTimeout(async () => {
      const me = await fetch('/auth/me').catch(() => null);
      if (me && me.status === 401 && !(await refresh().catch(() => false))) return showLogin('Session ended: log in again');
      connect();
    }, Math.min(5000, 500 * 2 ** retry++));
  });
}

function received(ticket, id) {
  const position = BigInt(id);
  const known = tickets.get(ticket.id);
  if (known && known.position >= position) return;
  if (!lastEventId || BigInt(lastEventId) < position) lastEventId = id;
  if (station !== EXPO && ticket.station_id !== station) return;
  // Only what the board shows is kept: open tickets, and (for a station) the last bumped, for recall.
  if (ticket.status === 'closed' || (station === EXPO && ticket.status !== 'open')) tickets.delete(ticket.id);
  else tickets.set(ticket.id, { ticket, position });
  if (station === EXPO) return expoChanged(ticket);
  if (ticket.status === 'open') {
    if (live && !known) chime();
    if (!bumping.has(ticket.id)) board.set(ticket.id, ticket);
  } else board.delete(ticket.id);
  if (ticket.status === 'done') {
    forgetOldBumps();
    // The card may be gone already (bumped from this screen): the recall button still has news.
    refreshBarSoon();
  }
}

function bumped() {
  return [...tickets.values()].map((x) => x.ticket).filter((t) => t.status === 'done').sort((a, b) => Date.parse(b.bumped_at) - Date.parse(a.bumped_at));
}
function forgetOldBumps() {
  for (const t of bumped().slice(RECALLABLE)) tickets.delete(t.id);
}

/** The expo card of one order: its open tickets, every station's. */
function expoChanged(ticket) {
  const orderId = ticket.order_id;
  const ids = byOrder.get(orderId) ?? new Set();
  if (tickets.has(ticket.id)) ids.add(ticket.id);
  else ids.delete(ticket.id);
  if (ids.size === 0) {
    byOrder.delete(orderId);
    return board.delete(orderId);
  }
  byOrder.set(orderId, ids);
  const open = [...ids].map((id) => tickets.get(id).ticket);
  open.sort((a, b) => (stationNames.get(a.station_id) ?? '').localeCompare(stationNames.get(b.station_id) ?? '') || byAge(a, b));
  board.set(orderId, { id: orderId, tickets: open });
}

let barSoon = null;
function refreshBarSoon() {
  barSoon ??= setTimeout(() => {
    barSoon = null;
    afterFlush();
  }, 0);
}

function afterFlush() {
  const count = board.size;
  $('empty').hidden = count > 0 || !$('login').hidden;
  $('counts').textContent = station === EXPO ? `${count} orders` : `${count} open`;
  if (station === EXPO) {
    $('allday').hidden = true;
    $('recall').hidden = true;
    return;
  }
  allDay(board.items());
  const recent = bumped();
  $('recall').hidden = recent.length === 0;
  $('recall').textContent = `↶ Recall (${recent.length})`;
  recallListChanged();
}

// --- taps: one listener for every card ---
async function tap(button, url) {
  button.classList.add('tapping');
  button.disabled = true;
  try {
    const res = await api('POST', url);
    if (!res.ok && res.status !== 401) button.title = `Refused (${res.status})`;
    return res.ok;
  } catch {
    $('offline').hidden = false;
    return false;
  } finally {
    button.classList.remove('tapping');
    button.disabled = false;
  }
}

$('tickets').addEventListener('click', async (event) => {
  const button = event.target.closest('[data-action]');
  const card = event.target.closest('article');
  if (!button || !card) return;
  const { action } = button.dataset;
  if (action === 'done') await tap(button, `/kitchen/tickets/${card.dataset.ticketId}/lines/${button.dataset.lineId}/done`);
  if (action === 'bump') {
    // Off the board at once (the server's answer follows); back if the bump is refused.
    const id = card.dataset.ticketId;
    const t = tickets.get(id)?.ticket;
    bumping.add(id);
    board.delete(id);
    board.flush();
    const ok = await tap(button, `/kitchen/tickets/${id}/bump`);
    bumping.delete(id);
    if (ok) showUndo(id, t ? tableLabel(t) : 'ticket');
    else if (tickets.get(id)?.ticket.status === 'open') board.set(id, tickets.get(id).ticket);
  }
  if (action === 'serve') {
    const ids = [...(byOrder.get(card.dataset.orderId) ?? [])];
    await Promise.all(ids.map((id) => tap(button, `/kitchen/tickets/${id}/bump`)));
  }
});

// Recall any of the last bumped tickets, from a list.
const recallListChanged = recallDialog(bumped, (button, id) => tap(button, `/kitchen/tickets/${id}/recall`));

// Timers, colours and auto-bump countdowns move every second without rebuilding the cards.
setInterval(() => {
  $('clock').textContent = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (!board) return;
  const now = Date.now();
  for (const card of board.nodes()) tick(card, now);
}, 1000);

start().catch(() => showLogin());
