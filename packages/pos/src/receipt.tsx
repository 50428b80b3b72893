import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { go } from './route.js';

/** The receipt as the 80 mm printer has it (42 columns); "Print" is the browser's print of this page alone. */
export function ReceiptScreen(props: { ticketId: string }) {
  const [text, setText] = useState<string | null>(null);
  const [orderId, setOrderId] = useState<string | null>(null);
  useEffect(() => {
    void api.GET('/tickets/{id}/receipt', { params: { path: { id: props.ticketId } }, parseAs: 'text', headers: { accept: 'text/plain' } }).then((r) => setText(r.response.ok ? r.data ?? '' : `No receipt: ${r.response.status}`));
    void api.GET('/tickets/{id}', { params: { path: { id: props.ticketId } } }).then((r) => setOrderId(r.data?.order_id ?? null));
  }, [props.ticketId]);
  return (
    <main class="receipt-screen">
      <div class="actions no-print">
        <button type="button" class="secondary" onClick={() => (orderId ? go(`/bill/${orderId}`) : history.back())}>← Bill</button>
        <button type="button" id="print" onClick={() => print()}>Print</button>
      </div>
      <pre class="receipt" id="receipt">{text ?? 'Loading…'}</pre>
    </main>
  );
}
