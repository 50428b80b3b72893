import { connect } from 'node:net';

/** Sends one job's bytes to a printer; resolves once the printer has taken them. */
export type SendToPrinter = (host: string, port: number, bytes: Uint8Array) => Promise<void>;

/**
 * Raw TCP to an ESC/POS printer (port 9100). The bytes are written and our side half-closed; the job
 * counts as printed only when the printer closes its side too and the socket closes without error:
 * a printer that takes the connection but never answers, or resets it, has not printed for us.
 */
export const sendOverTcp = (timeoutMs = 10_000): SendToPrinter => (host, port, bytes) =>
  new Promise<void>((resolve, reject) => {
    let answered = false;
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`)));
    socket.on('connect', () => socket.end(bytes));
    // A printer may send status bytes back; they are read and dropped so its close reaches us.
    socket.resume();
    socket.on('end', () => (answered = true));
    socket.on('error', (err) => reject(err));
    socket.on('close', (hadError) => {
      if (hadError) return;
      if (answered) resolve();
      else reject(new Error(`${host}:${port} closed before taking the job`));
    });
  });
