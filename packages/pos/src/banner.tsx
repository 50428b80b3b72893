import { online, useSignal, writesInFlight } from './api.js';

/**
 * While the network is away: what is waiting, and that it will be sent. Every screen shows the same
 * banner (the POS and the kitchen display); `retrying` says what the screen does meanwhile.
 */
export function OfflineBanner(props: { retrying?: string }) {
  const up = useSignal(online);
  const waiting = useSignal(writesInFlight);
  if (up) return null;
  return (
    <div class="offline" id="offline-banner" role="status">
      No connection to the POS — {waiting > 0 ? `${waiting} change${waiting === 1 ? '' : 's'} waiting, sent again as soon as it is back` : props.retrying ?? 'retrying'}
    </div>
  );
}
