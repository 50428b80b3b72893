export { PAYMENT_RECEIVED, parsePaymentReceived, type PaymentReceived } from './payment-received.js';
export { webhookReceiver, type WebhookReceiverOptions } from './webhook-receiver.js';
export { recordReceivedPayment, startPaymentConsumer, PAYMENT_CONSUMER, type RecordedPayment } from './payment-consumer.js';
export { paymentIntake, recordAndAnnounce, type PaymentIntake } from './payment-intake.js';
export { Reconciler, paymentFromRecord, DEFAULT_OVERLAP_MS, type ReconcilerOptions, type ReconcilerStats, type ReconcilerCheckpoint } from './reconciler.js';
export { followNodeWebsocket, type NodeWebsocketOptions } from './node-websocket.js';
export { startPaymentWatch, type PaymentWatch } from './payment-watch.js';
export { walletBridge } from './part.js';
