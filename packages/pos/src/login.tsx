import { SignInRefused } from '@comanda/client';
import { useState } from 'preact/hooks';
import { comanda } from './api.js';
import { Keypad } from './pin-pad.js';

const REMEMBERED = 'comanda.pos.name';

export interface Member { id: string; name: string; role: string }

/** The staff member's name (remembered on this device) and a PIN pad. */
export function Login(props: { onSignedIn: (member: Member) => void }) {
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
        <h1>Comanda</h1>
        <label>Name<input id="login-name" autocomplete="username" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <div class="pin-dots" aria-label="PIN">{pin ? '●'.repeat(pin.length) : <span class="muted">PIN</span>}</div>
        <Keypad value={pin} onChange={setPin} onEnter={() => void submit()} enterLabel="Sign in" disabled={busy} />
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </main>
  );
}
