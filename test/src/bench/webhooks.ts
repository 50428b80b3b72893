import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import { InProcessBus } from '@comanda/bus';
import { order, orderStream, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, SqliteEventStore } from '@comanda/event-store';
import { signWebhook } from '@comanda/lightning';
import { paymentIntake, webhookReceiver } from '@comanda/wallet-bridge';

export interface BenchResult { measure: string; value: string; target: string; ok: boolean }

const SECRET = 'bench-webhook-secret';
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * Webhooks verified (HMAC of the raw body) and made durable (recorded on their orders in the SQLite log,
 * synchronous=FULL) per second, standalone, 64 in flight; beside the raw append rate of the same store
 * with the same concurrency, one payment event per append, in the same run.
 */
export async function webhookIntake(dir: string): Promise<BenchResult> {
  const n = 10_000;
  const inFlight = 64;
  const store = new SqliteEventStore({ filename: join(dir, 'webhooks.db') });
  const commands = new CommandHandler(store);
  const orders = Array.from({ length: 200 }, () => randomUUID());
  for (const orderId of orders) {
    await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: randomUUID(), tableId: null, waiter: 'w', at: Date.now(), lines: [], authority: ownAuthority(null, 'waiter') });
  }
  const app = Fastify({ logger: false });
  await app.register(webhookReceiver, { intake: paymentIntake(new InProcessBus(), commands, pino({ level: 'silent' })), webhookSecret: SECRET });
  await app.ready();
  const bodies = Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify({ type: 'payment_received', timestamp: Date.now(), amountSat: 1000 + i, paymentHash: randomBytes(32).toString('hex'), externalId: orders[i % orders.length], payerNote: null, payerKey: null });
    return { body, signature: signWebhook(body, SECRET) };
  });
  let next = 0;
  let failed = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < n) {
      const { body, signature } = bodies[next++]!;
      const res = await app.inject({ method: 'POST', url: '/webhooks/node', headers: { 'content-type': 'application/json', 'x-node-signature': signature }, payload: body });
      if (res.statusCode !== 200) failed++;
    }
  }));
  const rate = n / seconds(start);
  await app.close();

  // Raw appends of the same event shape into fresh streams of the same store kind, same concurrency.
  const raw = new SqliteEventStore({ filename: join(dir, 'webhooks-raw.db') });
  let k = 0;
  const r = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (k < n) {
      const i = k++;
      await raw.append(`order-${i}`, [{ id: randomUUID(), type: 'OrderPaymentReceived', data: { paymentHash: randomBytes(32).toString('hex'), amountSat: 1000, receivedAt: Date.now() }, metadata: { occurredAt: Date.now(), schemaVersion: 1 } }], 'no_stream');
    }
  }));
  const rawRate = n / seconds(r);
  await raw.close();
  await store.close();
  return {
    measure: 'webhooks verified and made durable (standalone, recorded on their orders before 200)',
    value: `${Math.round(rate)}/s (${(rate / rawRate).toFixed(2)}× raw single-event appends at ${Math.round(rawRate)}/s, same store, 64 in flight)${failed ? `, ${failed} not 200` : ''}`,
    target: '≥ 2,000/s',
    ok: rate >= 2000 && failed === 0,
  };
}
