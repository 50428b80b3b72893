/**
 * Typed HTTP client for the Lightning node API (seed 001; phoenixd and the simulator). Basic auth with
 * an empty user name, form-field bodies, JSON or plain-text answers. Every failure is one error type,
 * {@link NodeError}, whose `kind` is what a caller decides on; `status` and `text` are the node's own.
 */

export type NodeErrorKind = 'unreachable' | 'timeout' | 'unauthorized' | 'rejected' | 'payment_failed';

export class NodeError extends Error {
  override readonly name = 'NodeError';
  readonly kind: NodeErrorKind;
  readonly status: number;
  readonly text: string;
  readonly paymentHash?: string;
  constructor(
    kind: NodeErrorKind,
    /** The node's HTTP status; 0 when no answer arrived. */
    status: number,
    /** The node's answer text (a payment failure's `reason`, a parameter error's text). */
    text: string,
    paymentHash?: string,
  ) {
    super(`Lightning node ${kind}${status ? ` (${status})` : ''}: ${text}`);
    this.kind = kind;
    this.status = status;
    this.text = text;
    this.paymentHash = paymentHash;
  }
}

export interface NodeInfo {
  nodeId: string;
  channels: Array<{ state: string; channelId: string; balanceSat: number; inboundLiquiditySat: number; capacitySat: number; fundingTxId: string }>;
  chain?: string;
  blockHeight?: number;
  version?: string;
}

export interface NodeBalance {
  balanceSat: number;
  feeCreditSat: number;
}

export interface CreatedInvoice {
  amountSat?: number;
  paymentHash: string;
  serialized: string;
}

export interface PaymentResult {
  recipientAmountSat: number;
  routingFeeSat: number;
  paymentId: string;
  paymentHash: string;
  paymentPreimage: string;
}

export interface IncomingPayment {
  type?: string;
  subType?: string;
  paymentHash: string;
  preimage?: string;
  externalId?: string;
  description?: string;
  invoice?: string;
  isPaid: boolean;
  isExpired?: boolean;
  requestedSat?: number;
  receivedSat: number;
  fees?: number;
  payerNote?: string;
  payerKey?: string;
  expiresAt?: number;
  completedAt?: number;
  createdAt: number;
}

export interface OutgoingPayment {
  type?: string;
  subType?: string;
  paymentId: string;
  paymentHash?: string;
  preimage?: string;
  txId?: string;
  isPaid: boolean;
  sent: number;
  fees: number;
  invoice?: string;
  completedAt?: number;
  createdAt: number;
}

export type ListQuery = {
  from?: number;
  to?: number;
  limit?: number;
  offset?: number;
  all?: boolean;
};

export interface NodeClientOptions {
  url: string;
  password: string;
  /** Per request; a node that does not answer in time is a `timeout`. Default 10 s. */
  timeoutMs?: number;
}

type Fields = Record<string, string | number | boolean | undefined | null>;

const form = (fields: Fields) =>
  new URLSearchParams(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null).map(([k, v]): [string, string] => [k, String(v)]));

export class NodeClient {
  private readonly base: string;
  private readonly auth: string;
  private readonly timeoutMs: number;

  constructor(options: NodeClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`:${options.password}`).toString('base64')}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** The raw exchange: answers the text of a 2xx, throws NodeError for everything else. */
  async request(method: 'GET' | 'POST', path: string, fields: Fields = {}): Promise<string> {
    const params = form(fields);
    const query = method === 'GET' && params.size > 0 ? `?${params}` : '';
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}${query}`, {
        method,
        headers: { authorization: this.auth, accept: 'application/json, text/plain' },
        body: method === 'POST' ? params : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new NodeError('timeout', 0, `no answer within ${this.timeoutMs} ms`);
      throw new NodeError('unreachable', 0, (error as Error).message);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      const name = (error as { name?: string }).name;
      throw new NodeError(name === 'TimeoutError' ? 'timeout' : 'unreachable', response.status, 'the answer was cut off');
    }
    if (response.status === 401 || response.status === 403) throw new NodeError('unauthorized', response.status, text);
    if (response.status >= 400) throw new NodeError('rejected', response.status, text);
    return text;
  }

  async json<T>(method: 'GET' | 'POST', path: string, fields: Fields = {}): Promise<T> {
    const text = await this.request(method, path, fields);
    try {
      return JSON.parse(text) as T;
    } catch {
      // A 200 whose body is not JSON where JSON is due: the node refused with a text (sendtoaddress style).
      throw new NodeError('rejected', 200, text);
    }
  }

  getInfo = () => this.json<NodeInfo>('GET', '/getinfo');
  getBalance = () => this.json<NodeBalance>('GET', '/getbalance');

  createInvoice = (p: { description: string; amountSat?: number; expirySeconds?: number; externalId?: string; webhookUrl?: string }) =>
    this.json<CreatedInvoice>('POST', '/createinvoice', p);

  async createOffer(p: { description?: string; amountSat?: number } = {}): Promise<string> {
    return (await this.request('POST', '/createoffer', p)).trim();
  }

  payInvoice = (p: { invoice: string; amountSat?: number }) => this.pay('/payinvoice', p);
  payOffer = (p: { offer: string; amountSat?: number; message?: string }) => this.pay('/payoffer', p);
  payLnAddress = (p: { address: string; amountSat?: number; message?: string }) => this.pay('/paylnaddress', p);

  /** Payment failures come back as 200 `{paymentHash?, reason}`: turned into `payment_failed`. */
  private async pay(path: string, fields: Fields): Promise<PaymentResult> {
    const body = await this.json<Partial<PaymentResult> & { reason?: string }>('POST', path, fields);
    if (typeof body.reason === 'string' || typeof body.paymentId !== 'string') {
      throw new NodeError('payment_failed', 200, body.reason ?? 'payment failed', body.paymentHash);
    }
    return body as PaymentResult;
  }

  /** Answers the transaction id; the node answers its refusals as 200 text too (`Invalid address`, …). */
  async sendToAddress(p: { amountSat: number; address: string; feerateSatByte: number }): Promise<string> {
    return this.txid(await this.request('POST', '/sendtoaddress', p));
  }

  async bumpFee(feerateSatByte: number): Promise<string> {
    return this.txid(await this.request('POST', '/bumpfee', { feerateSatByte }));
  }

  async closeChannel(p: { channelId: string; address: string; feerateSatByte: number }): Promise<string> {
    return this.txid(await this.request('POST', '/closechannel', p));
  }

  private txid(text: string): string {
    const t = text.trim().replace(/^"|"$/g, '');
    if (!/^[0-9a-f]{64}$/i.test(t)) throw new NodeError('rejected', 200, t);
    return t.toLowerCase();
  }

  listIncoming = (q: ListQuery & { externalId?: string } = {}) => this.json<IncomingPayment[]>('GET', '/payments/incoming', q);
  getIncoming = (paymentHash: string) => this.json<IncomingPayment>('GET', `/payments/incoming/${encodeURIComponent(paymentHash)}`);
  listOutgoing = (q: ListQuery = {}) => this.json<OutgoingPayment[]>('GET', '/payments/outgoing', q);
  getOutgoing = (paymentId: string) => this.json<OutgoingPayment>('GET', `/payments/outgoing/${encodeURIComponent(paymentId)}`);
  getOutgoingByHash = (paymentHash: string) => this.json<OutgoingPayment>('GET', `/payments/outgoingbyhash/${encodeURIComponent(paymentHash)}`);

  decodeInvoice = (invoice: string) => this.json<Record<string, unknown>>('POST', '/decodeinvoice', { invoice });
  decodeOffer = (offer: string) => this.json<Record<string, unknown>>('POST', '/decodeoffer', { offer });

  /** The real node serves it as GET (query), the seed as POST (form): try GET, fall back on 404/405. */
  async estimateLiquidityFees(amountSat: number): Promise<{ miningFeeSat: number; serviceFeeSat: number }> {
    try {
      return await this.json('GET', '/estimateliquidityfees', { amountSat });
    } catch (error) {
      if (error instanceof NodeError && (error.status === 404 || error.status === 405)) return this.json('POST', '/estimateliquidityfees', { amountSat });
      throw error;
    }
  }

  /** The real node reads from/to from the query string only, the seed from the form: send both. */
  async export(p: { from?: number; to?: number } = {}): Promise<string> {
    const query = form(p);
    return this.request('POST', `/export${query.size ? `?${query}` : ''}`, p);
  }
}

/** Whether a NodeError means "no answer at all" (503 material) rather than an answer we dislike. */
export const nodeUnavailable = (error: unknown): boolean =>
  error instanceof NodeError && (error.kind === 'unreachable' || error.kind === 'timeout');
