import { direct, ok } from './api.js';
import { useLinkQr } from './link-qr.js';
import type { Ticket } from './menu.js';
import { money } from './money.js';

/**
 * A bill's QR for its guests (issue 63): their phones open `/g/{token}` and pay their share by
 * Lightning; their payments come back to this bill marked "paid by guest". Read straight from the
 * network (the token is the server's HMAC, never kept on the tablet); offline it says so.
 */
export function GuestLinkSheet(props: { ticket: Ticket; label: string; onClose: () => void }) {
  const { link, qr, error } = useLinkQr(() => ok(direct.GET('/tickets/{id}/guest-link', { params: { path: { id: props.ticket.id } } })), [props.ticket.id]);
  return (
    <div class="guest-link" id="guest-link-sheet">
      <h3>{props.label}: guests pay from their phones</h3>
      <p class="muted">Scan to see the bill and pay {money(props.ticket.due)} or a share, with a tip, by Lightning.</p>
      {error && <p class="error" role="alert">{error}</p>}
      {qr && <img class="qr" id="guest-qr" src={qr} alt="QR code of the bill's guest page" data-link={link} />}
      {link && <p class="guest-url"><code>{link}</code></p>}
      <div class="actions"><button type="button" class="secondary" onClick={props.onClose}>Done</button></div>
    </div>
  );
}
