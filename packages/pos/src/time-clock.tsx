import { useState } from 'preact/hooks';
import { direct } from './api.js';

type Action = 'in' | 'break' | 'back' | 'out';
const BUTTONS: Array<{ action: Action; label: string }> = [
  { action: 'in', label: 'Clock in' }, { action: 'break', label: 'Start break' }, { action: 'back', label: 'End break' }, { action: 'out', label: 'Clock out' },
];
const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * The time clock's buttons on the sign-in card (issue 60): the name and PIN typed there punch in, out or
 * for a break without signing in. Straight to the server, never through the outbox: a punch is worth
 * its time only when the server records it now, and a PIN is never kept on the tablet.
 */
export function TimeClockPunch(props: { name: string; pin: string; onDone: () => void }) {
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const punch = async (action: Action) => {
    if (!props.name.trim() || !props.pin) return setSaid({ text: 'Enter your name and PIN', error: true });
    setBusy(true);
    try {
      const { data, error, response } = await direct.POST('/time-clock/punch', { body: { name: props.name.trim(), pin: props.pin, action } });
      // A 202 (recorded, the back office's lists not there yet) says only its message.
      if (data) setSaid({ text: 'name' in data ? `${data.message}: ${data.name} at ${time(data.at)}` : data.message, error: false });
      else if (response.status === 401) setSaid({ text: 'Wrong name or PIN', error: true });
      else setSaid({ text: error && 'message' in error ? String(error.message) : `The time clock answered ${response.status}`, error: true });
    } catch {
      setSaid({ text: 'No connection to the POS: try again', error: true });
    } finally {
      setBusy(false);
      props.onDone();
    }
  };
  return (
    <div class="time-clock">
      <div class="punches">
        {BUTTONS.map((b) => <button type="button" key={b.action} class="key punch" data-punch={b.action} disabled={busy} onClick={() => void punch(b.action)}>{b.label}</button>)}
      </div>
      {said && <p class={said.error ? 'error' : 'punched'} role={said.error ? 'alert' : 'status'} id="punch-said">{said.text}</p>}
    </div>
  );
}
