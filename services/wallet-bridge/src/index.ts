export { PAYMENT_RECEIVED, parsePaymentReceived, type PaymentReceived } from './payment-received.js';
export { webhookReceiver, type WebhookReceiverOptions } from './webhook-receiver.js';
export { recordReceivedPayment, startPaymentConsumer, PAYMENT_CONSUMER } from './payment-consumer.js';
