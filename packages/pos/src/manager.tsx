import { useState } from 'preact/hooks';
import type { Member } from './login.js';
import { ApiError } from './api.js';
import { Keypad } from './pin-pad.js';

export const isManager = (me: Member) => me.role === 'manager' || me.role === 'admin';

/** A manager's name and PIN as they travel with the waiter's own request (the API's X-Approval-* headers). */
export type ApprovalHeaders = { 'x-approval-name': string; 'x-approval-pin': string };

/**
 * A manager's approval on the waiter's screen: the manager types name and PIN, and they go with the
 * waiter's own request, so the server records the waiter who did it and the manager who approved it
 * (a wrong PIN is refused there, and counts toward that manager's sign-in lock). The PIN lives only in
 * this sheet's state, for the one request.
 */
export function ManagerApproval(props: { what: string; act: (approval: ApprovalHeaders) => Promise<void>; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    setBusy(true);
    setError('');
    try {
      await props.act({ 'x-approval-name': encodeURIComponent(name.trim()), 'x-approval-pin': pin });
      props.onDone();
    } catch (e) {
      setPin('');
      setError(e instanceof Error ? e.message : String(e));
    } finally {
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

/** Runs a write as the signed-in member's own; a 403 (a manager's call) asks for the approval instead of failing. */
export async function orAskManager(act: () => Promise<unknown>, ask: () => void, then: () => void): Promise<void> {
  try {
    await act();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return ask();
    throw e;
  }
  then();
}
