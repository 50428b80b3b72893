import type { Bus, BusSubscription } from '@comanda/bus';
import { DomainError, order, orderStream, unmatchedPayment, unmatchedPaymentStream } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { settleLightningPayment } from '@comanda/workflows';
import type { Logger } from 'pino';
import { PAYMENT_RECEIVED, parsePaymentReceived, type PaymentReceived } from './payment-received.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PAYMENT_CONSUMER = 'wallet-payments';

export interface RecordedPayment {
  where: 'ticket' | 'order' | 'unmatched';
  /** False when this payment hash was already recorded (a redelivery, or webhook and reconciliation both). */
  recorded: boolean;
}

/**
 * A received payment becomes events: on its ticket when externalId names one (Lightning checkout,
 * valued at the invoice's locked rate: packages/workflows/src/checkout), on its order when it names one (the order decider
 * ignores a hash it has seen, and flags a late or odd payment), otherwise on its own unmatched-payment
 * stream. Both are idempotent per payment hash, so any number of deliveries record it once; a failure
 * throws, and whoever delivered it tries again.
 */
export async function recordReceivedPayment(commands: CommandHandler, payment: PaymentReceived): Promise<RecordedPayment> {
  const context = { userId: null, correlationId: payment.paymentHash };
  if (payment.externalId && UUID.test(payment.externalId)) {
    const settled = await settleLightningPayment(commands, payment);
    if (settled) return { where: 'ticket', recorded: settled.recorded };
    try {
      const { events } = await commands.handle(order, orderStream(payment.externalId.toLowerCase()), {
        type: 'recordPayment', paymentHash: payment.paymentHash, amountSat: payment.amountSat, receivedAt: payment.timestamp,
      }, context);
      return { where: 'order', recorded: events.length > 0 };
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
    }
  }
  const { events } = await commands.handle(unmatchedPayment, unmatchedPaymentStream(payment.paymentHash), {
    type: 'recordUnmatchedPayment',
    payment: {
      paymentHash: payment.paymentHash, amountSat: payment.amountSat, externalId: payment.externalId,
      payerNote: payment.payerNote, payerKey: payment.payerKey, receivedAt: payment.timestamp,
    },
  }, context);
  return { where: 'unmatched', recorded: events.length > 0 };
}

/** The durable consumer (JetStream in the distributed shape): resumes where it acknowledged after a restart. */
export async function startPaymentConsumer(bus: Bus, commands: CommandHandler, logger: Logger): Promise<BusSubscription> {
  return bus.subscribe(PAYMENT_RECEIVED, async (message) => {
    const payment = parsePaymentReceived(message.payload);
    if (!payment) {
      // Only the intake publishes here, after the same check: this is a bug, not a payment to retry.
      logger.error({ dedupId: message.dedupId }, 'unreadable payment_received message skipped');
      return;
    }
    const { where, recorded } = await recordReceivedPayment(commands, payment);
    if (recorded) logger.info({ paymentHash: payment.paymentHash, externalId: payment.externalId, where }, 'payment recorded');
  }, { durable: PAYMENT_CONSUMER });
}
