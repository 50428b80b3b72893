import { EventEmitter } from 'node:events';
import { chainByName, encodeBolt11, encodeOffer, type Bolt12Offer } from '@comanda/lightning';
import { applyReceive, capacityMsat, planReceive, spendableMsat, type Channel } from './channel.js';
import type { NetworkContext } from './context.js';
import { liquidityFees, msatToSat, VSIZE } from './fees.js';
import { paymentHashOf, publicKeyHex } from './keys.js';
import { listIncoming, listOutgoing, type ListQuery } from './lists.js';
import type { NodeState } from './node-state.js';
import { isExpired, type IncomingPayment, type OutgoingPayment } from './records.js';
import { randomHex, randomUuid } from './runtime.js';

export const NODE_VERSION = '0.7.2-nodesim';
const INVOICE_FEATURES = [8, 14, 17]; // var_onion_optin and payment_secret required, basic_mpp optional
const MIN_FINAL_CLTV_EXPIRY_DELTA = 144;

export interface InvoiceRequest {
  amountMsat?: number;
  description?: string;
  descriptionHash?: string;
  expirySeconds: number;
  externalId?: string;
  webhookUrl?: string;
}

/** One simulated node: its keys, channel, payments, and the operations of the node API. */
export class SimNode {
  /** Base URL once its HTTP server listens. */
  url = '';
  readonly nodeId: string;
  /** Emits `payment_received` with the IncomingPayment. */
  readonly events = new EventEmitter();
  readonly state: NodeState;
  readonly ctx: NetworkContext;

  constructor(
    state: NodeState,
    ctx: NetworkContext,
  ) {
    this.state = state;
    this.ctx = ctx;
    this.nodeId = publicKeyHex(state.privateKey);
    this.events.setMaxListeners(0);
  }

  get name(): string {
    return this.state.name;
  }
  get password(): string {
    return this.state.password;
  }
  get limitedPassword(): string {
    return this.state.limitedPassword;
  }
  get webhookSecret(): string {
    return this.state.webhookSecret;
  }
  get webhookUrls(): readonly string[] {
    return this.state.webhookUrls;
  }

  addWebhook(url: string): void {
    if (!this.state.webhookUrls.includes(url)) this.state.webhookUrls.push(url);
    this.ctx.changed();
  }

  private now(): number {
    return this.ctx.clock.now();
  }

  // ---- receiving -------------------------------------------------------------------------------

  createInvoice(request: InvoiceRequest): { amountSat?: number; paymentHash: string; serialized: string } {
    const createdAt = this.now();
    const preimage = randomHex(this.ctx.random, 32);
    const paymentHash = paymentHashOf(preimage);
    const paymentSecret = randomHex(this.ctx.random, 32);
    const serialized = encodeBolt11(
      {
        chain: this.ctx.chainName,
        amountMsat: request.amountMsat,
        timestampSeconds: Math.floor(createdAt / 1000),
        paymentHash,
        paymentSecret,
        description: request.description,
        descriptionHash: request.descriptionHash,
        expirySeconds: request.expirySeconds,
        minFinalCltvExpiryDelta: MIN_FINAL_CLTV_EXPIRY_DELTA,
        featureBits: INVOICE_FEATURES,
      },
      Buffer.from(this.state.privateKey, 'hex'),
    );
    this.state.incoming.push({
      paymentHash,
      preimage,
      paymentSecret,
      origin: 'invoice',
      externalId: request.externalId,
      description: request.description,
      invoice: serialized,
      webhookUrl: request.webhookUrl,
      requestedMsat: request.amountMsat,
      receivedMsat: 0,
      feesMsat: 0,
      expiresAt: createdAt + request.expirySeconds * 1000,
      createdAt,
    });
    this.ctx.changed();
    return { ...(request.amountMsat === undefined ? {} : { amountSat: msatToSat(request.amountMsat) }), paymentHash, serialized };
  }

  /** A new reusable offer; fresh metadata makes each one distinct. */
  createOffer(request: { amountMsat?: number; description?: string }): string {
    return this.offer(randomHex(this.ctx.random, 16), request);
  }

  /** The deprecated getoffer: always the same offer. */
  defaultOffer(): string {
    return this.offer(this.state.offerMetadata, {});
  }

  private offer(metadata: string, request: { amountMsat?: number; description?: string }): string {
    const chain = chainByName(this.ctx.chainName);
    return encodeOffer({
      chainHash: this.ctx.chainName === 'mainnet' ? undefined : chain?.chainHash,
      metadata,
      amountMsat: request.amountMsat,
      description: request.description,
      issuerId: this.nodeId,
    });
  }

  /** BIP-353 style address; resolvable through LUD-16 at this node's URL. */
  lnAddress(): string {
    return `₿${this.state.lnAddressUser}@${new URL(this.url).host}`;
  }

  /** The HTLC of a payment to `paymentHash` arrives: the invoice it pays, if it accepts it. */
  acceptInvoicePayment(paymentHash: string, amountMsat: number, paymentSecret: string | undefined): IncomingPayment | undefined {
    const p = this.state.incoming.find((x) => x.paymentHash === paymentHash && x.origin === 'invoice');
    if (!p || p.completedAt !== undefined || isExpired(p, this.now())) return undefined;
    if (p.paymentSecret !== undefined && paymentSecret !== p.paymentSecret) return undefined;
    if (p.requestedMsat !== undefined && amountMsat < p.requestedMsat) return undefined;
    return p;
  }

  /** An invoice request for one of this node's offers: a one-off payment record, or undefined if refused. */
  acceptOfferPayment(offer: Bolt12Offer, amountMsat: number, payerKey: string, payerNote: string | undefined): IncomingPayment | undefined {
    if (offer.issuerId !== this.nodeId) return undefined;
    if (offer.currency !== undefined || (offer.amount !== undefined && amountMsat < offer.amount)) return undefined;
    const preimage = randomHex(this.ctx.random, 32);
    return {
      paymentHash: paymentHashOf(preimage),
      preimage,
      origin: 'offer',
      description: offer.description,
      requestedMsat: offer.amount,
      receivedMsat: 0,
      feesMsat: 0,
      payerKey,
      payerNote,
      createdAt: this.now(),
    };
  }

  /** Completes an accepted payment: moves the funds in and buys liquidity when needed. */
  settle(payment: IncomingPayment, amountMsat: number): void {
    const now = this.now();
    const policy = { autoLiquiditySat: this.ctx.autoLiquiditySat, feerateSatByte: this.ctx.chain.feerateSatByte };
    const plan = planReceive(this.state.channel, this.state.feeCreditMsat, amountMsat, policy);
    const after = applyReceive(this.state.channel, this.state.feeCreditMsat, amountMsat, plan, () => this.freshChannel());
    if (plan.kind === 'purchase') {
      const tx = this.ctx.chain.broadcast({ txId: randomHex(this.ctx.random, 32), kind: 'liquidity', owner: this.name, feeSat: plan.miningFeeSat, vsize: VSIZE.liquidityPurchase, createdAt: now });
      const feesMsat = (plan.miningFeeSat + plan.serviceFeeSat) * 1000;
      this.state.outgoing.push({
        paymentId: randomUuid(this.ctx.random),
        subType: 'auto_liquidity',
        status: 'succeeded',
        txId: tx.txId,
        recipientMsat: 0,
        feesMsat,
        balanceDeltaMsat: -plan.fromAmountMsat,
        feeCreditDeltaMsat: -plan.fromFeeCreditMsat,
        miningFeeSat: plan.miningFeeSat,
        serviceFeeMsat: plan.serviceFeeSat * 1000,
        completedAt: now,
        createdAt: now,
      });
    }
    this.state.channel = after.channel;
    this.state.feeCreditMsat = after.feeCreditMsat;
    payment.receivedMsat = amountMsat;
    payment.destination = plan.kind === 'fee_credit' ? 'fee_credit' : 'balance';
    payment.completedAt = now;
    if (!this.state.incoming.includes(payment)) this.state.incoming.push(payment);
    this.ctx.changed();
    this.ctx.paymentReceived(this, payment);
    this.events.emit('payment_received', payment);
  }

  freshChannel(): Channel {
    const fundingTxId = randomHex(this.ctx.random, 32);
    return {
      channelId: randomHex(this.ctx.random, 32),
      fundingTxId,
      shortChannelId: `${this.ctx.chain.height}x1x0`,
      state: 'Normal',
      balanceMsat: 0,
      inboundMsat: 0,
    };
  }

  // ---- sending (the network moves the funds; see payments.ts) ----------------------------------

  spendableMsat(): number {
    return spendableMsat(this.state.channel);
  }

  hasPaid(paymentHash: string): boolean {
    return this.state.outgoing.some((p) => p.paymentHash === paymentHash && p.subType === 'lightning' && p.status === 'succeeded');
  }

  recordOutgoing(payment: Omit<OutgoingPayment, 'paymentId' | 'createdAt'>): OutgoingPayment {
    const record: OutgoingPayment = { paymentId: randomUuid(this.ctx.random), createdAt: this.now(), ...payment };
    this.state.outgoing.push(record);
    this.ctx.changed();
    return record;
  }

  // ---- views -----------------------------------------------------------------------------------

  info(): Record<string, unknown> {
    const c = this.state.channel;
    return {
      nodeId: this.nodeId,
      channels: c
        ? [{ state: c.state, channelId: c.channelId, balanceSat: msatToSat(c.balanceMsat), inboundLiquiditySat: msatToSat(c.inboundMsat), capacitySat: msatToSat(capacityMsat(c)), fundingTxId: c.fundingTxId }]
        : [],
      chain: this.ctx.chainName,
      blockHeight: this.ctx.chain.height,
      version: NODE_VERSION,
    };
  }

  balance(): { balanceSat: number; feeCreditSat: number } {
    return { balanceSat: msatToSat(this.spendableMsat()), feeCreditSat: msatToSat(this.state.feeCreditMsat) };
  }

  estimateLiquidityFees(amountSat: number): { miningFeeSat: number; serviceFeeSat: number } {
    return liquidityFees(amountSat, this.ctx.chain.feerateSatByte);
  }

  listIncoming(query: ListQuery & { externalId?: string }): IncomingPayment[] {
    return listIncoming(this.state.incoming, query);
  }

  incomingByHash(paymentHash: string): IncomingPayment | undefined {
    return this.state.incoming.find((p) => p.paymentHash === paymentHash);
  }

  listOutgoing(query: ListQuery): OutgoingPayment[] {
    return listOutgoing(this.state.outgoing, query);
  }

  outgoingById(paymentId: string): OutgoingPayment | undefined {
    return this.state.outgoing.find((p) => p.paymentId === paymentId);
  }

  /** The latest attempt for that hash: a success if there is one. */
  outgoingByHash(paymentHash: string): OutgoingPayment | undefined {
    const attempts = this.state.outgoing.filter((p) => p.paymentHash === paymentHash);
    return attempts.find((p) => p.status === 'succeeded') ?? attempts.at(-1);
  }
}
