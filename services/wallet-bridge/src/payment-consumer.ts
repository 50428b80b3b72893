import type { Bus, BusSubscription } from '@comanda/bus';
import { DomainError, order, orderStream, unmatchedPayment, unmatchedPaymentStream } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import type { Logger } from 'pino';
import { PAYMENT_RECEIVED, parsePaymentReceived, type PaymentReceived } from './payment-received.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PAYMENT_CONSUMER = 'wallet-payments';

/**
 * A received payment becomes events: on its order when externalId names one (the order decider
 * ignores a hash it has seen), otherwise on its own unmatched-payment stream. Both are idempotent per
 * payment hash, so redelivery (at least once) records it once; a failure throws, and the bus redelivers.
 */
export async function recordReceivedPayment(commands: CommandHandler, payment: PaymentReceived): Promise<'order' | 'unmatched'> {
  const context = { userId: null, correlationId: payment.paymentHash };
  if (payment.externalId && UUID.test(payment.externalId)) {
    try {
      await commands.handle(order, orderStream(payment.externalId.toLowerCase()), {
        type: 'recordPayment', paymentHash: payment.paymentHash, amountSat: payment.amountSat, receivedAt: payment.timestamp,
      }, context);
      return 'order';
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
    }
  }
  await commands.handle(unmatchedPayment, unmatchedPaymentStream(payment.paymentHash), {
    type: 'recordUnmatchedPayment',
    payment: {
      paymentHash: payment.paymentHash, amountSat: payment.amountSat, externalId: payment.externalId,
      payerNote: payment.payerNote, payerKey: payment.payerKey, receivedAt: payment.timestamp,
    },
  }, context);
  return 'unmatched';
}

/** The durable consumer: resumes where it acknowledged after a restart. */
export async function startPaymentConsumer(bus: Bus, commands: CommandHandler, logger: Logger): Promise<BusSubscription> {
  return bus.subscribe(PAYMENT_RECEIVED, async (message) => {
    const payment = parsePaymentReceived(message.payload);
    if (!payment) {
      // Only the receiver publishes here, after the same check: this is a bug, not a payment to retry.
      logger.error({ dedupId: message.dedupId }, 'unreadable payment_received message skipped');
      return;
    }
    const where = await recordReceivedPayment(commands, payment);
    logger.info({ paymentHash: payment.paymentHash, externalId: payment.externalId, where }, 'payment recorded');
  }, { durable: PAYMENT_CONSUMER });
}
