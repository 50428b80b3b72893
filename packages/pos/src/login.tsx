import { SignInRefused } from '@comanda/client';
import { useState } from 'preact/hooks';
import { comanda } from './api.js';
import { Keypad } from './pin-pad.js';
import { TimeClockPunch } from './time-clock.js';

const REMEMBERED = 'comanda.pos.names';
/** The most names a device lists: a shift's staff on one tablet. */
const MAX_REMEMBERED = 12;

/** The names signed in on this device, most recent first (names only: never a PIN or a token). */
function rememberedNames(): string[] {
  try {
    const names: unknown = JSON.parse(localStorage.getItem(REMEMBERED) ?? '[]');
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string').slice(0, MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}

const DEVICE = 'comanda.device';
/** This device's name as the back office lists its sessions ("Tablet 3"): a label, nothing secret. */
const deviceName = (): string => {
  try {
    return localStorage.getItem(DEVICE) ?? '';
  } catch {
    return '';
  }
};

const remember = (name: string) =>
  localStorage.setItem(REMEMBERED, JSON.stringify([name, ...rememberedNames().filter((n) => n.toLowerCase() !== name.toLowerCase())].slice(0, MAX_REMEMBERED)));

export interface Member { id: string; name: string; role: string }

/**
 * The staff member's name, picked from those who signed in on this device or typed (the field starts
 * empty, so a name is never typed onto the last one's), then a PIN pad: the sign-in of every screen (the
 * POS, the kitchen display). `title` heads the card; `notice` is the screen's own word (this screen is
 * not for you, the session ended), shown until a sign-in is refused.
 */
export function Login(props: { onSignedIn: (member: Member) => void; title?: string; notice?: string }) {
  const [name, setName] = useState('');
  const [names] = useState(rememberedNames);
  const [device, setDevice] = useState(deviceName);
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // The same card punches the time clock (issue 60): name and PIN, then in, break, back or out.
  const [clock, setClock] = useState(false);
  const submit = async () => {
    if (!name.trim() || !pin) return setError('Enter your name and PIN');
    setBusy(true);
    setError('');
    try {
      // Unnamed, the server names the device by its browser ("Chrome on Android").
      const label = device.trim().slice(0, 64);
      const member = await comanda.signIn(name.trim(), pin, label || undefined);
      remember(name.trim());
      if (label) localStorage.setItem(DEVICE, label);
      else localStorage.removeItem(DEVICE);
      props.onSignedIn(member);
    } catch (e) {
      setPin('');
      setError(e instanceof SignInRefused ? e.message : 'No connection to the POS: try again');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <form class="login-card" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <h1>{props.title ?? 'Comanda'}</h1>
        <div class="login-modes" role="tablist">
          <button type="button" role="tab" id="mode-sign-in" aria-selected={!clock} class={clock ? 'chip' : 'chip active'} onClick={() => setClock(false)}>Sign in</button>
          <button type="button" role="tab" id="mode-time-clock" aria-selected={clock} class={clock ? 'chip active' : 'chip'} onClick={() => { setClock(true); setError(''); }}>Time clock</button>
        </div>
        {/* Read first, before the name is picked: why this screen is asking again. */}
        {props.notice && !error && <p class="notice" role="alert" id="login-notice">{props.notice}</p>}
        {names.length > 0 && (
          <div class="staff-names" role="radiogroup" aria-label="Who is signing in">
            {names.map((n) => <button type="button" key={n} data-staff-name={n} class={n === name ? 'chip active' : 'chip'} aria-checked={n === name} role="radio" onClick={() => { setName(n); setError(''); }}>{n}</button>)}
          </div>
        )}
        <label>Name<input id="login-name" autocomplete="off" value={name} onFocus={(e) => e.currentTarget.select()} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <div class="pin-dots" aria-label="PIN">{pin ? '●'.repeat(pin.length) : <span class="muted">PIN</span>}</div>
        {clock
          ? <><Keypad value={pin} onChange={setPin} disabled={busy} /><TimeClockPunch name={name} pin={pin} onDone={() => setPin('')} /></>
          : <Keypad value={pin} onChange={setPin} onEnter={() => void submit()} enterLabel="Sign in" disabled={busy} />}
        {error && <p class="error" role="alert">{error}</p>}
        <details class="device-name">
          <summary>This device: <strong>{device.trim() || 'not named'}</strong> <span class="change">Change</span></summary>
          <label>Name it as managers will see it<input id="device-name" autocomplete="off" maxLength={64} placeholder="Tablet 3" value={device} onInput={(e) => setDevice(e.currentTarget.value)} /></label>
        </details>
      </form>
    </main>
  );
}
