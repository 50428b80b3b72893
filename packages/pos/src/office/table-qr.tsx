import { useRef } from 'preact/hooks';
import { direct, ok } from '../api.js';
import { useLinkQr } from '../link-qr.js';

/**
 * A table's QR card (issue 63, ordering from the table): guests scan it for the menu served now and
 * ask the table's waiter for dishes. The link is the server's (an HMAC of the table, never kept here);
 * Print puts the card alone on paper, to stand on the table.
 */
export function TableQr(props: { tableId: string; name: string }) {
  const { link, qr, error } = useLinkQr(() => ok(direct.GET('/tables/{id}/guest-link', { params: { path: { id: props.tableId } } })), [props.tableId]);
  const card = useRef<HTMLDivElement>(null);
  const print = () => {
    const done = () => {
      document.body.classList.remove('printing-card');
      card.current?.classList.remove('print-this');
    };
    document.body.classList.add('printing-card');
    card.current?.classList.add('print-this');
    window.addEventListener('afterprint', done, { once: true });
    window.print();
  };
  return (
    <div class="table-qr" ref={card}>
      <p class="muted">Guests scan it for the menu and ask for dishes; you confirm on the floor.</p>
      {error && <p class="error" role="alert">{error}</p>}
      {qr && <><strong class="table-qr-name">{props.name}</strong><img class="qr" id="table-qr" src={qr} alt={`QR code of table ${props.name}'s menu`} data-link={link} /></>}
      {link && <p class="guest-url"><code>{link}</code></p>}
      {qr && <button type="button" class="secondary" id="print-table-qr" onClick={print}>Print the table's card</button>}
    </div>
  );
}
