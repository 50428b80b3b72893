import type { Part } from '@comanda/runtime';
import { startPaymentConsumer } from './payment-consumer.js';
import { paymentIntake, recordAndAnnounce } from './payment-intake.js';
import type { PaymentReceived } from './payment-received.js';
import { startPaymentWatch } from './payment-watch.js';
import { webhookReceiver } from './webhook-receiver.js';

/**
 * The wallet bridge: the node's payment webhook (`POST /webhooks/node` on the process's HTTP server),
 * the durable payment consumer when the bus is JetStream, and reconciliation with the node (timer and
 * websocket). Needs a Lightning node: the configured one, or a part before it that provides one.
 */
export const walletBridge = (): Part => ({
  name: 'wallet bridge',
  usesNode: true,
  async start(rt) {
    if (!rt.node) throw new Error('The wallet bridge needs a Lightning node (COMANDA_NODE_URL)');
    const logger = rt.logger.child({ service: 'wallet-bridge' });
    const webhookSecret = rt.secret('webhook-secret', rt.config.webhookSecret);
    // A durable bus (JetStream) carries webhooks to the consumer; an in-process one is bypassed: the
    // webhook writes the payment to the log itself before answering (payment-intake.ts).
    const consumer = rt.bus.durable ? await startPaymentConsumer(rt.bus, rt.commands, logger) : undefined;
    const record = recordAndAnnounce(rt.commands, rt.bus, logger);
    const counted = async (payment: PaymentReceived) => {
      try {
        const recorded = await record(payment);
        rt.metrics.reconciliations.inc({ outcome: recorded ? 'recorded' : 'already_recorded' });
        return recorded;
      } catch (error) {
        rt.metrics.reconciliations.inc({ outcome: 'failed' });
        throw error;
      }
    };
    const watch = startPaymentWatch({
      node: rt.node.access, record: counted, checkpoint: rt.checkpoint('reconciler'), everyMs: rt.config.reconcileEveryS * 1000, logger,
    });
    rt.serve(webhookReceiver, { intake: paymentIntake(rt.bus, rt.commands, logger), webhookSecret });
    // The node's reachability is the runtime's `lightningNode` check; a reconciliation pass failing
    // meanwhile (a timeout under load) is logged and retried on the timer, and does not take the bridge out.
    rt.health.push({ name: 'walletBridge', check: async () => (await rt.bus.ping(), 'up') });
    return {
      stop: async () => {
        await watch.close();
        await consumer?.close();
      },
    };
  },
});
