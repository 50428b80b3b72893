import type { BusSubscription } from '@comanda/bus';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { eventStreamHead } from '../../plugins/security.js';
import type { ServerResponse } from 'node:http';

export const PAYMENT_RECEIVED = 'pos.wallet.payment_received';
const HEARTBEAT_MS = 15_000;

/**
 * GET /wallet/events: Server-Sent Events (one-way, plain HTTP, reconnects built into EventSource; a
 * POS screen only listens). Each received payment is one `event: payment_received` whose `data` is
 * the node's payment JSON and whose `id` is the payment hash. Live only: a client sees payments that
 * arrive while it is connected (on reconnect it reads GET /orders/{id} or the incoming list).
 */
export default async function walletEventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const open = new Set<ServerResponse>();
  // Streams never end on their own: shutting down ends them first (preClose runs before the server
  // stops accepting and waits for connections), or close() would wait for the clients forever.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/wallet/events', {
    config: { permission: 'wallet:invoice' },
    schema: {
      tags: ['wallet'],
      summary: 'Payments received, as Server-Sent Events',
      description: 'text/event-stream. Events `payment_received` (`id` = paymentHash, `data` = {type, timestamp, amountSat, paymentHash, externalId, payerNote, payerKey}). A comment line `: connected` is sent once subscribed, and `: keep-alive` every 15 s.',
      response: {
        200: { description: 'An endless text/event-stream, ended by the client or by the server shutting down', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      },
    },
  }, async (request, reply) => {
    const res = reply.raw;
    let subscription: BusSubscription | undefined;
    let closed = false;
    const stop = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      open.delete(res);
      void subscription?.close();
    };
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.on('close', stop);
    reply.hijack();
    subscription = await app.deps.bus.subscribe<{ paymentHash?: string }>(PAYMENT_RECEIVED, (message) => {
      if (closed) return;
      res.write(`event: payment_received\nid: ${message.dedupId}\ndata: ${JSON.stringify(message.payload)}\n\n`);
    });
    if (closed) return void subscription.close();
    open.add(res);
    res.writeHead(200, eventStreamHead(reply));
    // Subscribed before this line: a client that has read it will see every later payment.
    res.write(': connected\n\n');
    res.on('close', stop);
  });
}
