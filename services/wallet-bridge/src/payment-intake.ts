import type { Bus } from '@comanda/bus';
import type { CommandHandler } from '@comanda/event-store';
import type { Logger } from 'pino';
import { recordReceivedPayment } from './payment-consumer.js';
import { PAYMENT_RECEIVED, type PaymentReceived } from './payment-received.js';

/** Makes a received payment durable; resolves only once it is, so "received" is never said too early. */
export type PaymentIntake = (payment: PaymentReceived) => Promise<void>;

/**
 * Records the payment in the event log now (its order's stream, or the unmatched stream), and only
 * then tells live listeners (`GET /wallet/events`) on the bus. The announcement is best effort and
 * made once, when the payment is first recorded: listeners are live-only and read the order after.
 * Resolves to whether this call recorded it (false: it was already there).
 */
export function recordAndAnnounce(commands: CommandHandler, bus: Bus, logger: Logger) {
  return async (payment: PaymentReceived): Promise<boolean> => {
    const { where, recorded } = await recordReceivedPayment(commands, payment);
    if (!recorded) return false;
    logger.info({ paymentHash: payment.paymentHash, externalId: payment.externalId, amountSat: payment.amountSat, where }, 'payment recorded');
    try {
      await bus.publish(PAYMENT_RECEIVED, payment, payment.paymentHash);
    } catch (error) {
      logger.warn({ err: error, paymentHash: payment.paymentHash }, 'payment recorded but not announced to live listeners');
    }
    return true;
  };
}

/**
 * The webhook's intake. On a durable bus (JetStream) the acknowledged publish is the durable step
 * and the payment consumer records it; on an in-process bus, whose messages die with the process, the
 * payment is written to the event log before the webhook is answered.
 */
export function paymentIntake(bus: Bus, commands: CommandHandler, logger: Logger): PaymentIntake {
  if (bus.durable) return (payment) => bus.publish(PAYMENT_RECEIVED, payment, payment.paymentHash);
  const record = recordAndAnnounce(commands, bus, logger);
  return async (payment) => void (await record(payment));
}
