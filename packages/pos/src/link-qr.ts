import QRCode from 'qrcode';
import { useEffect, useState } from 'preact/hooks';
import { failure } from './api.js';

/**
 * A guest link read from the server (a bill's or a table's: an HMAC the tablet never keeps) as the
 * full address on this POS's origin and its QR image; offline, why not. `read` null: nothing to show.
 */
export function useLinkQr(read: (() => Promise<{ path: string }>) | null, deps: unknown[]): { link: string; qr: string; error: string } {
  const [link, setLink] = useState('');
  const [qr, setQr] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    if (!read) return;
    read()
      .then((l) => {
        const url = `${location.origin}${l.path}`;
        setLink(url);
        return QRCode.toDataURL(url, { margin: 1, width: 320, errorCorrectionLevel: 'M' }).then(setQr);
      })
      .catch((e: unknown) => setError(failure(e)));
  }, deps);
  return { link, qr, error };
}
