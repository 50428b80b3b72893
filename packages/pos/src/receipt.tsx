import { useEffect, useState } from 'preact/hooks';
import { api, direct, ok } from './api.js';
import { useLinkQr } from './link-qr.js';
import { go } from './route.js';

/** The receipt as the 80 mm printer has it (42 columns); "Print" is the browser's print of this page alone. */
export function ReceiptScreen(props: { ticketId: string }) {
  const [text, setText] = useState<string | null>(null);
  const [orderId, setOrderId] = useState<string | null>(null);
  const [toPay, setToPay] = useState(false);
  useEffect(() => {
    void api.GET('/tickets/{id}/receipt', { params: { path: { id: props.ticketId } }, parseAs: 'text', headers: { accept: 'text/plain' } }).then((r) => setText(r.response.ok ? r.data ?? '' : `No receipt: ${r.response.status}`));
    void api.GET('/tickets/{id}', { params: { path: { id: props.ticketId } } }).then((r) => {
      setOrderId(r.data?.order_id ?? null);
      setToPay(r.data?.status_name === 'pending');
    });
  }, [props.ticketId]);
  // A bill still to pay ends with its guest link (issue 63): the text has it, and here its QR to scan.
  const guest = useLinkQr(toPay ? () => ok(direct.GET('/tickets/{id}/guest-link', { params: { path: { id: props.ticketId } } })) : null, [props.ticketId, toPay]);
  return (
    <main class="receipt-screen">
      <div class="actions no-print">
        <button type="button" class="secondary" onClick={() => (orderId ? go(`/bill/${orderId}`) : history.back())}>← Bill</button>
        <button type="button" id="print" onClick={() => print()}>Print</button>
      </div>
      <pre class="receipt" id="receipt">{text ?? 'Loading…'}</pre>
      {guest.qr && <img class="qr receipt-qr" id="receipt-guest-qr" src={guest.qr} alt="QR code of the bill's guest page" data-link={guest.link} />}
    </main>
  );
}
