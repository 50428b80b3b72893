import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { direct as api, comanda, signedOut, signedOutByManager, useSignal } from '../api.js';
import { OfflineBanner } from '../banner.js';
import { Login, type Member } from '../login.js';
import { Bar, Display, type Station } from './display.js';
import { useUndo } from './extras.js';
import { EXPO } from './feed.js';
import { Clock } from './ticker.js';
import '../base.css';
import './kitchen.css';

// The kitchen display (/kitchen), on the POS's stack: the same sign-in, client and banner.
// The address may name the station: ?station=<id> or ?station=expo; ?warn=<min>&late=<min> colour the timers.
const KITCHEN_ROLES = ['kitchen', 'manager', 'admin'];

function Kitchen() {
  const [me, setMe] = useState<Member | null | undefined>(undefined);
  const [stations, setStations] = useState<Station[]>([]);
  const [station, setStation] = useState(new URLSearchParams(location.search).get('station') || localStorage.getItem('comanda.station') || '');
  const [notice, setNotice] = useState('');
  // A fresh sign-in each time the screen turns someone away (their PIN is not left on the pad).
  const [turnedAway, setTurnedAway] = useState(0);
  const ended = useSignal(signedOut);
  const undo = useUndo(8);

  /** Who signed in may use this screen, and the kitchen has stations: the board, else the sign-in with why not. */
  const start = async (member: Member | null) => {
    if (!member) return setMe(null);
    const refuse = (why: string) => {
      setNotice(why);
      setTurnedAway((n) => n + 1);
      setMe(null);
    };
    if (!KITCHEN_ROLES.includes(member.role)) return refuse('This screen is for kitchen staff');
    const { data } = await api.GET('/stations');
    if (!data || data.length === 0) return refuse('No kitchen stations yet: a manager adds them first');
    setStations(data);
    if (station !== EXPO && !data.some((s) => s.id === station)) setStation((data.find((s) => s.is_default) ?? data[0]!).id);
    setNotice('');
    setMe(member);
  };
  useEffect(() => {
    void api.GET('/auth/me').then((r) => start(r.data ?? null)).catch(() => setMe(null));
  }, []);
  useEffect(() => {
    if (ended === 0) return;
    // The session ended under a signed-in screen (not a first visit, whose session was never there).
    if (me) setNotice(signedOutByManager.get() ? 'This screen was signed out by a manager: sign in again' : 'Session ended: sign in again');
    setMe(null);
  }, [ended]);

  const signOut = async () => {
    await comanda.signOut().catch(() => undefined);
    setNotice('');
    setMe(null);
  };

  if (me === undefined) return <><Bar end={<Clock />} /><OfflineBanner /></>;
  if (me === null) {
    return (
      <>
        <Bar end={<Clock />} />
        <OfflineBanner />
        <Login key={turnedAway} title="Kitchen" notice={notice} onSignedIn={(m) => void start(m).catch(() => setMe(null))} />
      </>
    );
  }
  return <Display key={station} station={station} stations={stations} onStation={setStation} onSignOut={() => void signOut()} undo={undo} />;
}

render(<Kitchen />, document.getElementById('app')!);
