import type { Logger } from 'pino';
import WebSocket from 'ws';

export interface NodeWebsocketOptions {
  /** The node's HTTP base URL; the websocket is `/websocket` on it. */
  url: string;
  password: string;
  /** A payment_received frame arrived. */
  onPayment(paymentHash: string): void;
  /** Connected (first time or again): whatever was announced while down was missed. */
  onConnected(): void;
  logger: Logger;
  /** Backoff bounds for reconnecting. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Follows the node's payment websocket for as long as it runs, reconnecting with exponential backoff
 * (reset once connected). The node does not replay what it announced while we were away, so every
 * (re)connection asks the owner to reconcile; the timer covers the time it stays down.
 */
export function followNodeWebsocket(options: NodeWebsocketOptions): { close(): void; connected(): boolean } {
  const min = options.minDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  let delay = min;
  let socket: WebSocket | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  let open = false;

  const target = `${options.url.replace(/^http/, 'ws').replace(/\/$/, '')}/websocket`;
  const connect = () => {
    if (closed) return;
    const ws = new WebSocket(target, { headers: { authorization: `Basic ${Buffer.from(`:${options.password}`).toString('base64')}` } });
    socket = ws;
    ws.on('open', () => {
      open = true;
      delay = min;
      options.logger.info('following the node websocket');
      options.onConnected();
    });
    ws.on('message', (data) => {
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      const f = frame as { type?: unknown; paymentHash?: unknown };
      if (f.type === 'payment_received' && typeof f.paymentHash === 'string' && /^[0-9a-f]{64}$/i.test(f.paymentHash)) {
        options.onPayment(f.paymentHash.toLowerCase());
      }
    });
    ws.on('error', (error) => options.logger.debug({ err: error }, 'node websocket error'));
    ws.on('close', () => {
      if (open) options.logger.warn('node websocket closed; reconnecting');
      open = false;
      if (closed) return;
      retry = setTimeout(connect, delay);
      retry.unref();
      delay = Math.min(max, delay * 2);
    });
  };
  connect();
  return {
    connected: () => open,
    close() {
      closed = true;
      clearTimeout(retry);
      socket?.terminate();
    },
  };
}
