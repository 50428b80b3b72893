import { SignInRefused } from '@comanda/client';
import { useState } from 'preact/hooks';
import { comanda } from './api.js';
import { Keypad } from './pin-pad.js';

const REMEMBERED = 'comanda.pos.name';

export interface Member { id: string; name: string; role: string }

/**
 * The staff member's name (remembered on this device) and a PIN pad: the sign-in of every screen (the
 * POS, the kitchen display). `title` heads the card; `notice` is the screen's own word (this screen is
 * not for you, the session ended), shown until a sign-in is refused.
 */
export function Login(props: { onSignedIn: (member: Member) => void; title?: string; notice?: string }) {
  const [name, setName] = useState(localStorage.getItem(REMEMBERED) ?? '');
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!name.trim() || !pin) return setError('Enter your name and PIN');
    setBusy(true);
    setError('');
    try {
      const member = await comanda.signIn(name.trim(), pin);
      localStorage.setItem(REMEMBERED, name.trim());
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
        <label>Name<input id="login-name" autocomplete="username" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <div class="pin-dots" aria-label="PIN">{pin ? '●'.repeat(pin.length) : <span class="muted">PIN</span>}</div>
        <Keypad value={pin} onChange={setPin} onEnter={() => void submit()} enterLabel="Sign in" disabled={busy} />
        {(error || props.notice) && <p class="error" role="alert">{error || props.notice}</p>}
      </form>
    </main>
  );
}
