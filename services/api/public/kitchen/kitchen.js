// The kitchen display: one station's open tickets, live over Server-Sent Events.
// Plain browser JavaScript, no build step. Query parameters: station=<id>, warn=<min> (10), late=<min> (20).
const params = new URLSearchParams(location.search);
const minutes = (name, fallback) => {
  const v = Number(params.get(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const WARN_MS = minutes('warn', 10) * 60_000;
const LATE_MS = minutes('late', 20) * 60_000;
const KITCHEN_ROLES = ['kitchen', 'manager', 'admin'];
const $ = (id) => document.getElementById(id);

/** Tickets by id, with the log position of the change that produced each (never overwrite newer with older). */
const tickets = new Map();
let lastEventId = null;
let source = null;
let station = params.get('station') || localStorage.getItem('comanda.station') || '';
let retry = 0;

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

function showLogin(message = '') {
  if (source) source.close();
  source = null;
  $('login').hidden = false;
  $('tickets').hidden = true;
  $('empty').hidden = true;
  $('station').hidden = $('recall').hidden = $('logout').hidden = true;
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
  $('logout').hidden = false;
  const res = await api('GET', '/stations');
  const stations = res.status === 200 ? await res.json() : [];
  if (stations.length === 0) return showLogin('No kitchen stations yet: a manager adds them first');
  if (!stations.some((s) => s.id === station)) station = (stations.find((s) => s.is_default) ?? stations[0]).id;
  const select = $('station');
  select.replaceChildren(...stations.map((s) => new Option(s.name, s.id, false, s.id === station)));
  select.hidden = false;
  connect();
}

$('station').addEventListener('change', (event) => {
  station = event.target.value;
  tickets.clear();
  lastEventId = null;
  render();
  connect();
});

// --- live updates: a reconnect resumes from the last change seen, so nothing is lost while offline ---
function connect() {
  localStorage.setItem('comanda.station', station);
  if (source) source.close();
  const url = `/kitchen/events?station_id=${encodeURIComponent(station)}${lastEventId ? `&last_event_id=${lastEventId}` : ''}`;
  source = new EventSource(url);
  source.addEventListener('open', () => {
    retry = 0;
    $('offline').hidden = true;
  });
  source.addEventListener('ticket', (event) => {
    const ticket = JSON.parse(event.data);
    const position = BigInt(event.lastEventId);
    const known = tickets.get(ticket.id);
    if (!known || known.position < position) tickets.set(ticket.id, { ticket, position });
    if (!lastEventId || BigInt(lastEventId) < position) lastEventId = event.lastEventId;
    render();
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

// --- rendering ---
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const LABEL = { sent: 'NEW', in_progress: 'COOKING', done: 'DONE', cancelled: 'CANCELLED' };
const age = (t) => Date.now() - Date.parse(t.fired_at);
const clock = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
const ageClass = (ms) => (ms >= LATE_MS ? 'late' : ms >= WARN_MS ? 'warn' : 'fresh');

async function tap(button, url) {
  button.classList.add('tapping');
  button.disabled = true;
  try {
    const res = await api('POST', url);
    if (!res.ok && res.status !== 401) button.title = `Refused (${res.status})`;
  } catch {
    $('offline').hidden = false;
  } finally {
    button.classList.remove('tapping');
    button.disabled = false;
  }
}

function card(t) {
  const ms = age(t);
  const header = el('button', { type: 'button', class: 'ticket-header', title: 'Tap to bump', onclick: (e) => tap(e.currentTarget, `/kitchen/tickets/${t.id}/bump`) },
    el('span', { class: 'table' }, t.table_name ?? 'Take-away'),
    el('span', { class: 'timer', 'data-fired': t.fired_at }, clock(ms)),
    el('span', { class: 'who' }, t.waiter),
    el('span', { class: 'hint' }, 'tap to bump'));
  const lines = el('ul', { class: 'lines' }, ...t.lines.map((l) => el('li', {},
    el('button', {
      type: 'button', class: `line ${l.kitchen_status}`, 'data-line-id': l.line_id,
      ...(l.kitchen_status === 'cancelled' || l.kitchen_status === 'done' ? { 'aria-disabled': 'true' } : {}),
      onclick: (e) => { if (l.kitchen_status !== 'cancelled' && l.kitchen_status !== 'done') tap(e.currentTarget, `/kitchen/tickets/${t.id}/lines/${l.line_id}/done`); },
    },
    el('span', { class: 'status' }, LABEL[l.kitchen_status] ?? l.kitchen_status),
    el('span', { class: 'dish' }, l.dish_name),
    l.notes ? el('span', { class: 'notes' }, l.notes) : null))));
  return el('article', { class: `ticket ${ageClass(ms)}`, 'data-ticket-id': t.id }, header, lines);
}

function render() {
  const all = [...tickets.values()].map((x) => x.ticket).filter((t) => t.station_id === station);
  const openTickets = all.filter((t) => t.status === 'open').sort((a, b) => Date.parse(a.fired_at) - Date.parse(b.fired_at));
  $('tickets').replaceChildren(...openTickets.map(card));
  $('empty').hidden = openTickets.length > 0 || $('login').hidden === false;
  $('counts').textContent = `${openTickets.length} open`;
  const bumped = all.filter((t) => t.status === 'done').sort((a, b) => Date.parse(b.bumped_at) - Date.parse(a.bumped_at))[0];
  const recall = $('recall');
  recall.hidden = !bumped;
  if (bumped) {
    recall.textContent = `↶ Recall ${bumped.table_name ?? 'take-away'}`;
    recall.dataset.recall = bumped.id;
  }
}

$('recall').addEventListener('click', (e) => tap(e.currentTarget, `/kitchen/tickets/${e.currentTarget.dataset.recall}/recall`));

// Timers and colours move every second without rebuilding the cards.
setInterval(() => {
  $('clock').textContent = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  for (const timer of document.querySelectorAll('.timer')) {
    const ms = Date.now() - Date.parse(timer.dataset.fired);
    timer.textContent = clock(ms);
    const article = timer.closest('.ticket');
    article.classList.remove('fresh', 'warn', 'late');
    article.classList.add(ageClass(ms));
  }
}, 1000);

start().catch(() => showLogin());
