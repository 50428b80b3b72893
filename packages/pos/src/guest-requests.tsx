import { useState } from 'preact/hooks';
import { accepted, api, direct, ifNoneMatch, newKey, ok, usePolled, useWrite } from './api.js';
import { go } from './route.js';

/**
 * What guests asked for from their tables' QR (issue 63), on every waiter's floor until one answers:
 * Accept puts the dishes on the table's order (unfired) and opens it, to check and fire; Decline asks
 * why, and the guest's phone shows it.
 */
export function GuestRequests() {
  const requests = usePolled((etag) => api.GET('/guest-requests', { headers: ifNoneMatch(etag) }), 3_000);
  const w = useWrite();
  const [declining, setDeclining] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const list = requests.data ?? [];
  if (list.length === 0) return w.error ? <p class="error" role="alert">{w.error}</p> : null;
  const path = (id: string) => ({ params: { path: { id } }, headers: { 'idempotency-key': newKey() } });
  const accept = (id: string) => w.run(async () => {
    const answer = await ok(direct.POST('/guest-requests/{id}/accept', path(id)));
    // Recorded but not yet readable (202): the floor shows it shortly; otherwise the order, to check and fire.
    if (!accepted(answer)) go(`/order/${answer.order_id}`);
  });
  const decline = (id: string) => w.run(async () => {
    await ok(direct.POST('/guest-requests/{id}/decline', { ...path(id), body: { reason: reason.trim() } }));
    setDeclining(null);
    setReason('');
  }, requests.refresh);
  return (
    <section class="guest-requests" id="guest-requests" aria-live="polite">
      {list.map((r) => (
        <article key={r.id} class="guest-request" data-request-id={r.id} data-table-id={r.table_id}>
          <header><strong>{r.table}</strong> asks from the table · {new Date(r.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</header>
          <ul>{r.lines.map((l, i) => <li key={i}>{l.quantity} × {l.name}{l.notes && <small> — {l.notes}</small>}</li>)}</ul>
          {declining === r.id ? (
            <form class="row-actions" onSubmit={(e) => { e.preventDefault(); if (reason.trim()) void decline(r.id); }}>
              <input id="decline-reason" placeholder="Why (the guest reads it)" maxLength={200} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
              <button type="submit" class="danger" id="decline-confirm" disabled={w.busy || !reason.trim()}>Decline</button>
              <button type="button" class="secondary" onClick={() => setDeclining(null)}>Cancel</button>
            </form>
          ) : (
            <div class="row-actions">
              <button type="button" class="accept" disabled={w.busy} onClick={() => void accept(r.id)}>Accept</button>
              <button type="button" class="secondary decline" disabled={w.busy} onClick={() => setDeclining(r.id)}>Decline…</button>
            </div>
          )}
        </article>
      ))}
      {w.error && <p class="error" role="alert">{w.error}</p>}
    </section>
  );
}
