import { NodeClient } from '@comanda/lightning';
import type { Logger } from 'pino';
import { followNodeWebsocket } from './node-websocket.js';
import type { PaymentReceived } from './payment-received.js';
import { Reconciler, type ReconcilerCheckpoint } from './reconciler.js';

export interface PaymentWatchOptions {
  node: { url: string; password: string };
  record: (payment: PaymentReceived) => Promise<boolean>;
  checkpoint: ReconcilerCheckpoint;
  everyMs: number;
  logger: Logger;
}

export interface PaymentWatch {
  reconciler: Reconciler;
  websocketConnected(): boolean;
  close(): Promise<void>;
}

/**
 * Everything that finds payments without a webhook: the reconciler's passes (at start and on a timer)
 * and the node's websocket (each announced payment is looked up and recorded; each reconnection
 * triggers a pass for what was announced while it was down).
 */
export function startPaymentWatch(options: PaymentWatchOptions): PaymentWatch {
  const logger = options.logger.child({ part: 'reconciler' });
  const reconciler = new Reconciler({
    node: new NodeClient({ url: options.node.url, password: options.node.password, timeoutMs: 10_000 }),
    record: options.record,
    checkpoint: options.checkpoint,
    everyMs: options.everyMs,
    logger,
  });
  reconciler.start();
  const socket = followNodeWebsocket({
    ...options.node,
    logger,
    onPayment: (hash) => void reconciler.paymentAnnounced(hash),
    onConnected: () => void reconciler.reconcile().catch(() => {}),
  });
  return {
    reconciler,
    websocketConnected: socket.connected,
    close: async () => {
      socket.close();
      await reconciler.stop();
    },
  };
}
