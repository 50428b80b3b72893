import { verifyWebhookSignature } from '@comanda/lightning';
import type { FastifyInstance } from 'fastify';
import type { PaymentIntake } from './payment-intake.js';
import { parsePaymentReceived } from './payment-received.js';

export interface WebhookReceiverOptions {
  /** Resolves once the payment is durable (event log, or JetStream's acknowledgement). */
  intake: PaymentIntake;
  /** The secret the node signs with (its `webhook-secret`). */
  webhookSecret: string;
}

/**
 * POST /webhooks/node: the node's payment_received webhook. The signature is an HMAC of the exact
 * bytes, so the body is read raw (this plugin's own content-type parser, encapsulated: the rest of the
 * app keeps parsing JSON). 200 only once the payment is durable: the node does not retry, so an answer
 * before that could lose a payment. A failure to make it durable answers 5xx, never 200; the same
 * payment delivered again (or found by reconciliation) is recorded once, by its payment hash.
 */
export async function webhookReceiver(app: FastifyInstance, options: WebhookReceiverOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  app.post('/webhooks/node', {
    schema: {
      tags: ['webhooks'], operationId: 'receiveNodeWebhook', summary: "The Lightning node's payment_received notification",
      description: 'Signed by the node with the shared webhook secret (X-Node-Signature: HMAC-SHA256 of the exact body). 200 only once the payment is recorded durably; the same payment delivered twice is recorded once.',
      security: [],
      response: {
        200: { type: 'object', properties: { status: { type: 'string', const: 'ok' } }, required: ['status'] },
        400: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], description: 'Not JSON, or not a payment_received' },
        401: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], description: 'Missing or wrong signature' },
      },
    },
  }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const header = request.headers['x-node-signature'] ?? request.headers['x-phoenix-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature || !verifyWebhookSignature(raw, options.webhookSecret, signature)) {
      return reply.code(401).send({ message: 'Invalid signature' });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return reply.code(400).send({ message: 'Malformed body: not JSON' });
    }
    const payment = parsePaymentReceived(parsed);
    if (!payment) return reply.code(400).send({ message: 'Malformed body: not a payment_received' });
    await options.intake(payment);
    request.log.info({ paymentHash: payment.paymentHash, amountSat: payment.amountSat }, 'payment received');
    return { status: 'ok' };
  });
}
