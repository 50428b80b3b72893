import t from 'tap';
import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhookSignature } from '../src/index.js';

const body = '{"type":"payment_received","timestamp":1700000000000,"amountSat":1000,"paymentHash":"ab","externalId":null,"payerNote":null,"payerKey":null}';

t.test('signature is lowercase hex HMAC-SHA256 keyed with the secret as UTF-8', async (t) => {
  const secret = 'ab'.repeat(16); // looks like hex but is used as text
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
  t.equal(signWebhook(body, secret), expected);
  t.match(signWebhook(body, 'sécret'), /^[0-9a-f]{64}$/);
  t.equal(signWebhook(Buffer.from(body), secret), expected);
});

t.test('verification accepts the signature, rejects any change', async (t) => {
  const secret = 'webhook-secret';
  const signature = signWebhook(body, secret);
  t.ok(verifyWebhookSignature(body, secret, signature));
  t.ok(verifyWebhookSignature(body, secret, signature.toUpperCase()), 'hex case does not matter');
  t.notOk(verifyWebhookSignature(`${body} `, secret, signature), 'body changed');
  t.notOk(verifyWebhookSignature(body, 'other', signature), 'secret changed');
  t.notOk(verifyWebhookSignature(body, secret, signature.slice(2)), 'truncated');
  t.notOk(verifyWebhookSignature(body, secret, 'zz'.repeat(32)), 'not hex');
  t.notOk(verifyWebhookSignature(body, secret, ''), 'empty');
});
