import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { direct as api, useSignal, writing } from '../api.js';
import { OfflineBanner } from '../banner.js';
import { OrderCard, TicketCard, tableLabel, tickCards } from './cards.js';
import { EightySix } from './eighty-six.js';
import { AllDay, RecallDialog, UndoBar, type Undo } from './extras.js';
import { EXPO, KitchenFeed } from './feed.js';
import { StationPaper } from './paper.js';
import { SoundButton, chime, keepAwake } from './sound.js';
import { Clock, everySecond } from './ticker.js';

export interface Station { id: string; name: string; is_default: boolean }

/** The bar along the top: the brand, what the screen adds, the time of day. */
export function Bar(props: { children?: ComponentChildren; end?: ComponentChildren }) {
  return (
    <header id="bar">
      <span class="brand">Comanda · Kitchen</span>
      {props.children}
      <span class="spacer" />
      {props.end}
    </header>
  );
}

/**
 * A button's request: shown as in progress (and not tappable again) until the server answers; the
 * refusal's status on the button's title. Written on the button itself, not rendered: the card it is
 * on may be gone already (a bump) or rendered again meanwhile.
 */
async function press(button: HTMLButtonElement, call: () => Promise<{ response: Response }>): Promise<boolean> {
  button.classList.add('tapping');
  button.disabled = true;
  try {
    const { response } = await writing(call);
    if (!response.ok && response.status !== 401) button.title = `Refused (${response.status})`;
    return response.ok;
  } catch {
    return false;
  } finally {
    button.classList.remove('tapping');
    button.disabled = false;
  }
}

const bump = (id: string) => api.POST('/kitchen/tickets/{id}/bump', { params: { path: { id } } });
const recall = (id: string) => api.POST('/kitchen/tickets/{id}/recall', { params: { path: { id } } });

/**
 * One station's open tickets (or, as the expo screen, every station's by order), live. Tickets are
 * cards oldest first; tap a line = done, tap the header = bump (then Undo for a few seconds), "Recall"
 * lists the last bumped.
 */
export function Display(props: { station: string; stations: Station[]; onStation: (id: string) => void; onSignOut: () => void; undo: Undo }) {
  const names = useMemo(() => new Map(props.stations.map((s) => [s.id, s.name])), [props.stations]);
  const stationName = (id: string) => names.get(id) ?? 'Station';
  const feed = useMemo(() => new KitchenFeed(props.station, stationName), [props.station]);
  useSignal(feed.changed);
  const { undo } = props;
  const [recalling, setRecalling] = useState(false);
  const board = useRef<HTMLElement>(null);
  // Timers and colours: the new cards' before they are painted, every card's each second.
  useLayoutEffect(() => tickCards(board.current!, Date.now(), true));
  useEffect(() => everySecond((now) => board.current && tickCards(board.current, now)), []);
  useEffect(() => {
    localStorage.setItem('comanda.station', props.station);
    feed.onNewTicket = chime;
    feed.connect();
    keepAwake();
    return () => feed.close();
  }, [feed]);

  const onTap = async (event: MouseEvent) => {
    const target = event.target as Element;
    const button = target.closest<HTMLButtonElement>('[data-action]');
    const card = target.closest<HTMLElement>('article');
    if (!button || !card) return;
    const action = button.dataset.action;
    const ticketId = card.dataset.ticketId ?? '';
    if (action === 'done') {
      await press(button, () => api.POST('/kitchen/tickets/{id}/lines/{lineId}/done', { params: { path: { id: ticketId, lineId: button.dataset.lineId! } } }));
    } else if (action === 'bump') {
      // Off the board at once (the server's answer follows); back if the bump is refused.
      const t = feed.ticket(ticketId);
      feed.bumpStarted(ticketId);
      const ok = await press(button, () => bump(ticketId));
      feed.bumpEnded(ticketId, ok);
      if (ok) undo.show(ticketId, t ? tableLabel(t) : 'ticket');
    } else if (action === 'serve') {
      await Promise.all(feed.ticketsOf(card.dataset.orderId!).map((id) => press(button, () => bump(id))));
    }
  };

  const bumped = feed.expo ? [] : feed.bumped();
  return (
    <>
      <Bar end={<>
        {bumped.length > 0 && <button id="recall" type="button" onClick={() => setRecalling(true)}>↶ Recall ({bumped.length})</button>}
        <SoundButton />
        <Clock />
        <button id="logout" type="button" onClick={props.onSignOut}>Log out</button>
      </>}>
        <select id="station" aria-label="Station" value={props.station} onChange={(e) => props.onStation(e.currentTarget.value)}>
          {props.stations.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          <option value={EXPO}>Expo · all stations</option>
        </select>
        <span id="counts">{feed.expo ? `${feed.size} orders` : `${feed.size} open`}</span>
      </Bar>
      <OfflineBanner retrying="reconnecting; the tickets catch up by themselves" />
      <EightySix />
      {!feed.expo && <StationPaper key={props.station} station={props.station} />}
      {!feed.expo && <AllDay tickets={feed.board.list} />}
      <main id="tickets" ref={board} class={feed.expo ? 'expo' : undefined} aria-live="polite" onClick={(e) => void onTap(e)}>
        {feed.expo
          ? feed.orders.list.map((o) => <OrderCard key={o.id} order={o} stationName={stationName} />)
          : feed.board.list.map((t) => <TicketCard key={t.id} t={t} autoBumpMs={feed.autoBumpMs} />)}
      </main>
      {feed.caughtUp && feed.size === 0 && <p id="empty">No open tickets</p>}
      {undo.shown && <UndoBar label={undo.shown.label} onUndo={() => { const id = undo.shown!.id; undo.hide(); void writing(() => recall(id)); }} />}
      {recalling && <RecallDialog bumped={bumped} onRecall={(b, id) => press(b, () => recall(id))} onClose={() => setRecalling(false)} />}
    </>
  );
}
