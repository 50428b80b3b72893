import { useState } from 'preact/hooks';
import { ApiError, managerClient } from './api.js';
import type { Member } from './login.js';
import { Keypad } from './pin-pad.js';

type Api = ReturnType<typeof managerClient>['api'];

export const isManager = (me: Member) => me.role === 'manager' || me.role === 'admin';

/**
 * A manager's approval on the waiter's screen: the manager types name and PIN, the action runs in the
 * manager's own short session (bearer tokens in memory: the device's cookies stay the waiter's), and
 * the session is revoked right after.
 */
export function ManagerApproval(props: { what: string; act: (api: Api) => Promise<void>; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    setBusy(true);
    setError('');
    const manager = managerClient();
    try {
      const who = await manager.signIn(name.trim(), pin);
      if (who.role !== 'manager' && who.role !== 'admin') throw new ApiError(403, `${who.name} is not a manager`);
      await props.act(manager.api);
      props.onDone();
    } catch (e) {
      setPin('');
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      await manager.signOut().catch(() => undefined);
      setBusy(false);
    }
  };
  return (
    <div class="manager-approval">
      <h3>Manager approval</h3>
      <p>{props.what}</p>
      <label>Manager<input id="manager-name" autocomplete="off" value={name} onInput={(e) => { setName(e.currentTarget.value); setError(''); }} /></label>
      <div class="pin-dots">{pin ? '●'.repeat(pin.length) : <span class="muted">PIN</span>}</div>
      <Keypad value={pin} onChange={(p) => { setPin(p); setError(''); }} onEnter={() => void approve()} enterLabel="Approve" disabled={busy} />
      {error && <p class="error" role="alert">{error}</p>}
      <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
    </div>
  );
}
