import { decodeBolt11, isLoopbackHost, publicKeyOf, signDigestDer, type Bolt11Invoice } from '@comanda/lightning';
import { linkingPrivateKey, sha256Hex } from '../keys.js';
import type { SimNode } from '../node.js';
import { payInvoice } from '../payments.js';
import type { PaymentResult } from '../records.js';

// The wallet side of LNURL (LUD-03, -04, -06, -12, -16), over real HTTP to whatever service is named.

/** The remote service failed or broke the protocol; reported as a 400 with this message. */
export class LnurlError extends Error {
  override readonly name = 'LnurlError';
}

const TIMEOUT_MS = 10_000;

async function getJson(url: URL): Promise<Record<string, unknown>> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) throw new LnurlError(`LNURL service must use https: ${url.host}`);
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    body = await response.json().catch(() => undefined);
    if (!response.ok && !isObject(body)) throw new LnurlError(`LNURL service ${url.host} answered ${response.status}`);
  } catch (error) {
    if (error instanceof LnurlError) throw error;
    throw new LnurlError(`LNURL service ${url.host} is unreachable: ${(error as Error).message}`);
  }
  if (!isObject(body)) throw new LnurlError(`LNURL service ${url.host} sent an invalid response`);
  if (typeof body.status === 'string' && body.status.toUpperCase() === 'ERROR') {
    throw new LnurlError(`LNURL service ${url.host} refused: ${typeof body.reason === 'string' ? body.reason : 'no reason given'}`);
  }
  return body;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integer(body: Record<string, unknown>, key: string): number {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new LnurlError(`LNURL response has an invalid ${key}`);
  return value;
}

function string(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string') throw new LnurlError(`LNURL response has no ${key}`);
  return value;
}

function withQuery(base: string, query: Record<string, string>): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new LnurlError('LNURL response has an invalid callback');
  }
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}

/**
 * LUD-06 pay (and LUD-16 lightning address, whose URL is already resolved): fetch the pay request,
 * check the amount and comment against its limits, get the invoice, check it commits to the metadata
 * and the amount, pay it.
 */
export async function lnurlPay(node: SimNode, url: URL, amountSat: number | undefined, comment: string | undefined): Promise<PaymentResult> {
  const request = await getJson(url);
  if (request.tag !== 'payRequest') throw new LnurlError('not an LNURL-pay resource');
  const min = integer(request, 'minSendable');
  const max = integer(request, 'maxSendable');
  const metadata = string(request, 'metadata');
  const amountMsat = amountSat === undefined ? (min === max ? min : undefined) : amountSat * 1000;
  if (amountMsat === undefined) throw new LnurlError('Request parameter amountSat is missing');
  if (amountMsat < min || amountMsat > max) throw new LnurlError(`amount must be between ${Math.ceil(min / 1000)} and ${Math.floor(max / 1000)} sat`);
  const commentAllowed = typeof request.commentAllowed === 'number' ? request.commentAllowed : 0;
  if (comment !== undefined && comment.length > commentAllowed) throw new LnurlError(`comment is too long (max ${commentAllowed} characters)`);
  const answer = await getJson(withQuery(string(request, 'callback'), { amount: String(amountMsat), ...(comment ? { comment } : {}) }));
  let invoice: Bolt11Invoice;
  try {
    invoice = decodeBolt11(string(answer, 'pr'));
  } catch (error) {
    throw error instanceof LnurlError ? error : new LnurlError('LNURL service sent an invalid invoice');
  }
  if (invoice.amountMsat !== amountMsat) throw new LnurlError('LNURL invoice amount does not match the requested amount');
  if (invoice.descriptionHash !== undefined && invoice.descriptionHash !== sha256Hex(metadata)) {
    throw new LnurlError('LNURL invoice description hash does not match the metadata');
  }
  return payInvoice(node, invoice, amountMsat);
}

export interface WithdrawOutcome {
  url: string;
  minWithdrawable: number;
  maxWithdrawable: number;
  description: string;
  k1: string;
  invoice: string;
}

/** LUD-03: invoice the service for the most it allows and hand it the invoice; it pays asynchronously. */
export async function lnurlWithdraw(node: SimNode, url: URL): Promise<WithdrawOutcome> {
  const request = await getJson(url);
  if (request.tag !== 'withdrawRequest') throw new LnurlError('not an LNURL-withdraw resource');
  const minWithdrawable = integer(request, 'minWithdrawable');
  const maxWithdrawable = integer(request, 'maxWithdrawable');
  const k1 = string(request, 'k1');
  const callback = string(request, 'callback');
  const description = typeof request.defaultDescription === 'string' ? request.defaultDescription.slice(0, 128) : '';
  if (maxWithdrawable < 1000 || maxWithdrawable < minWithdrawable) throw new LnurlError('nothing to withdraw');
  // Whole satoshis when the bounds allow it.
  const rounded = maxWithdrawable - (maxWithdrawable % 1000);
  const amountMsat = rounded >= minWithdrawable ? rounded : maxWithdrawable;
  const { serialized } = node.createInvoice({ amountMsat, description, expirySeconds: 3600 });
  await getJson(withQuery(callback, { k1, pr: serialized }));
  return { url: callback, minWithdrawable, maxWithdrawable, description, k1, invoice: serialized };
}

/** LUD-04: sign the service's k1 with the linking key for its domain and send key and signature back. */
export async function lnurlAuth(node: SimNode, url: URL): Promise<void> {
  const k1 = url.searchParams.get('k1');
  if (url.searchParams.get('tag') !== 'login' || k1 === null || !/^[0-9a-f]{64}$/i.test(k1)) throw new LnurlError('not an LNURL-auth resource');
  const privateKey = linkingPrivateKey(node.state.privateKey, url.hostname);
  const signed = new URL(url);
  signed.searchParams.set('sig', signDigestDer(k1, privateKey));
  signed.searchParams.set('key', publicKeyOf(privateKey));
  await getJson(signed);
}
