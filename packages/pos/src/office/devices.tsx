import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';

type DeviceSession = paths['/sessions']['get']['responses'][200]['content']['application/json'][number];

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }) : '—');

/**
 * The devices signed in, for managers and admins (issue 59): who, on which device, since when, last
 * seen. A lost tablet, or one left signed in, is signed out from here with a reason the audit trail
 * keeps. Straight to the network, not through the outbox: a sign-out kept for later would leave the
 * tablet working meanwhile, and the manager must see it done.
 */
export function Devices() {
  const list = usePolled(() => direct.GET('/sessions'), 5_000);
  const [ending, setEnding] = useState<DeviceSession | null>(null);
  const sessions = list.data ?? [];
  return (
    <main class="devices">
      <h2>Devices signed in</h2>
      {list.status === undefined ? <p class="muted">Loading…</p>
        : list.status !== 200 ? <p class="error" role="alert">The devices cannot be listed now ({list.status}).</p>
        : sessions.length === 0 ? <p class="muted">No device is signed in.</p> : (
          <ul class="device-list">
            {sessions.map((s) => (
              <li key={s.id} class="device" data-session-id={s.id}>
                <div>
                  <strong class="device-label">{s.device ?? 'Unnamed device'}</strong>
                  <span class="device-who">{s.user} <small class="muted">{s.role}</small></span>
                  <small class="muted">Signed in {time(s.signed_in_at)} · last active {time(s.last_refreshed_at ?? s.signed_in_at)}</small>
                </div>
                <button type="button" class="danger revoke" onClick={() => setEnding(s)}>Sign out</button>
              </li>
            ))}
          </ul>
        )}
      {ending && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog">
            <RevokeSheet session={ending} onDone={() => { setEnding(null); list.refresh(); }} onCancel={() => setEnding(null)} />
          </div>
        </div>
      )}
    </main>
  );
}

/** Asks why, then ends the session; the tablet shows its PIN pad at its next request. */
function RevokeSheet(props: { session: DeviceSession; onDone: () => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  // One key for this sign-out, whatever the retries: the manager's tap is recorded once.
  const [key] = useState(newKey);
  const w = useWrite();
  const { session: s } = props;
  const revoke = () => w.run(
    () => ok(direct.POST('/sessions/{id}/revoke', { params: { path: { id: s.id } }, body: { reason: reason.trim() }, headers: { 'idempotency-key': key } })),
    props.onDone,
  );
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (reason.trim()) void revoke(); }}>
      <h3>Sign out {s.device ?? 'this device'}?</h3>
      <p>{s.user} is signed in there. Anything the tablet has not sent yet stays on it and is sent after the next sign-in.</p>
      <label>Why<input id="revoke-reason" autocomplete="off" maxLength={200} placeholder="Tablet lost, shift over…" value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
        <button type="submit" id="confirm-revoke" class="danger" disabled={w.busy || !reason.trim()}>Sign it out</button>
      </div>
    </form>
  );
}
