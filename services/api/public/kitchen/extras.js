// What a line cook expects around the board: a sound for a new ticket, the screen kept awake, undo
// for a bump, all-day counts. Each works without the others and fails quietly where a browser lacks it.

import { tableLabel } from './cards.js';

const $ = (id) => document.getElementById(id);

/** A short two-tone chime from WebAudio (no file to fetch); off until the cook turns it on. */
export function sound() {
  let on = localStorage.getItem('comanda.sound') === 'on';
  let context = null;
  const button = $('sound');
  const show = () => {
    // Text, not an emoji: a kitchen tablet's browser may lack an emoji font.
    button.textContent = on ? '♪ On' : '♪ Off';
    button.setAttribute('aria-pressed', String(on));
    button.title = on ? 'Sound for new tickets: on' : 'Sound for new tickets: off';
  };
  button.addEventListener('click', () => {
    on = !on;
    localStorage.setItem('comanda.sound', on ? 'on' : 'off');
    // Created on the tap: browsers only let a page make sound after a gesture.
    if (on) context ??= new AudioContext();
    void context?.resume();
    show();
  });
  show();
  let played = 0;
  return () => {
    if (!on || !context) return;
    // Counted on the button, so a test (or a curious cook's inspector) can tell a chime was played.
    button.dataset.played = String(++played);
    const now = context.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.4, now + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
      osc.connect(gain).connect(context.destination);
      osc.start(now + i * 0.18);
      osc.stop(now + i * 0.18 + 0.17);
    }
  };
}

/** Keeps a wall tablet's screen on (Screen Wake Lock API where the browser has it), again after the tab comes back. */
export function keepAwake() {
  if (!('wakeLock' in navigator)) return;
  let lock = null;
  const acquire = async () => {
    if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
    lock = await navigator.wakeLock.request('screen').catch(() => null);
    document.body.dataset.awake = String(lock !== null);
  };
  document.addEventListener('visibilitychange', () => void acquire());
  void acquire();
}

/** "Bumped T7 · Undo" for a few seconds after a bump; undo recalls the ticket. */
export function undoBar(seconds, recall) {
  const bar = $('undo');
  let timer = null;
  let ticketId = null;
  const hide = () => {
    clearTimeout(timer);
    bar.hidden = true;
    ticketId = null;
  };
  $('undo-button').addEventListener('click', () => {
    const id = ticketId;
    hide();
    if (id) void recall(id);
  });
  return (id, label) => {
    clearTimeout(timer);
    ticketId = id;
    $('undo-text').textContent = `Bumped ${label}`;
    bar.hidden = false;
    timer = setTimeout(hide, seconds * 1000);
  };
}

/**
 * "Recall (n)" opens the list of the last bumped tickets (most recent first); tapping one recalls it.
 * The returned function shows the list again while it is open: a bump the server confirms after the
 * list opened (the cook bumped and tapped Recall at once) joins it instead of being missing.
 */
export function recallDialog(bumped, recall) {
  const dialog = $('recalls');
  const list = $('recall-list');
  const at = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  let shown = '';
  const show = () => {
    const recent = bumped();
    // Only when the list changed: the buttons under a cook's finger are not replaced for nothing.
    const ids = recent.map((t) => t.id).join();
    if (dialog.open && ids === shown) return;
    shown = ids;
    list.replaceChildren(...recent.map((t) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'recall-item';
      b.dataset.ticketId = t.id;
      b.textContent = `${tableLabel(t)} · ${t.waiter} · ${at(t.bumped_at)} · ${t.lines.map((l) => l.dish_name).join(', ')}`;
      return b;
    }));
  };
  $('recall').addEventListener('click', () => {
    show();
    dialog.showModal();
  });
  list.addEventListener('click', async (event) => {
    const b = event.target.closest('[data-ticket-id]');
    if (b && (await recall(b, b.dataset.ticketId))) dialog.close();
  });
  $('recall-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    shown = '';
    list.replaceChildren();
  });
  return () => {
    if (dialog.open) show();
  };
}

/** Open items per dish on the station's board, most first: what to have going all day. */
export function allDay(tickets) {
  const counts = new Map();
  for (const t of tickets) {
    for (const l of t.lines) {
      if (l.kitchen_status === 'done' || l.kitchen_status === 'cancelled') continue;
      counts.set(l.dish_name, (counts.get(l.dish_name) ?? 0) + 1);
    }
  }
  const strip = $('allday');
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const text = sorted.map(([name, n]) => `${n} ${name}`).join(' · ');
  if (strip.dataset.text === text) return;
  strip.dataset.text = text;
  strip.replaceChildren(...sorted.map(([name, n]) => {
    const item = document.createElement('span');
    item.className = 'allday-item';
    item.innerHTML = '<b></b> ';
    item.firstChild.textContent = String(n);
    item.append(name);
    return item;
  }));
  strip.hidden = sorted.length === 0;
}
