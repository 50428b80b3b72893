import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { ChainName } from '@comanda/lightning';
import { SimChain, type ChainState } from './chain.js';
import { ConfigError, DEFAULT_NODES, DEFAULTS, resolveChannel, type NetworkConfig, type NodeConfig } from './config.js';
import type { NetworkContext } from './context.js';
import { DEFAULT_WEBHOOK_POLICY, WebhookSender } from './events.js';
import { buildNodeServer } from './http/server.js';
import { privateKeyFromSeed, publicKeyHex } from './keys.js';
import { SimNode } from './node.js';
import type { NodeState } from './node-state.js';
import { onConfirmed } from './onchain.js';
import { JsonFile } from './persistence.js';
import { paymentReceivedEvent, type IncomingPayment } from './records.js';
import { ManualClock, cryptoRandom, randomHex, seededRandom, systemClock, type Clock, type RandomSource } from './runtime.js';

/** What the state file holds. Webhook URLs are configuration, not state, and are not saved. */
interface NetworkState {
  version: 1;
  lspPrivateKey: string;
  chain: ChainState;
  nodes: Omit<NodeState, 'webhookUrls'>[];
}

export interface SimNetwork {
  readonly nodes: readonly SimNode[];
  readonly chain: SimChain;
  readonly clock: Clock;
  node(name: string): SimNode;
  /** Mines blocks now, confirming every pending transaction. */
  mineBlocks(count: number): void;
  /** Where the nodes keep their files (exports): the configured data dir, or a temporary one removed on close. */
  readonly dataRoot: string;
  close(): Promise<void>;
}

/** Starts every node of the network, each with its HTTP server listening. */
export async function startNetwork(config: NetworkConfig = {}): Promise<SimNetwork> {
  const network = new Network(config);
  await network.listen(config.nodes ?? DEFAULT_NODES);
  return network;
}

class Network implements SimNetwork, NetworkContext {
  readonly chainName: ChainName;
  readonly chain: SimChain;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly autoLiquiditySat: number;
  readonly lspNodeId: string;
  readonly dataRoot: string;
  readonly nodes: SimNode[] = [];
  private readonly lspPrivateKey: string;
  private readonly log: Logger;
  private readonly file: JsonFile<NetworkState> | undefined;
  private readonly saved: NetworkState | undefined;
  private readonly webhooks: WebhookSender;
  private readonly servers: FastifyInstance[] = [];
  private blockTimer: NodeJS.Timeout | undefined;
  private readonly config: NetworkConfig;

  constructor(config: NetworkConfig) {
    this.config = config;
    this.log = config.logger ?? pino({ level: 'silent' });
    this.random = config.seed === undefined ? cryptoRandom : seededRandom(config.seed);
    this.clock = config.clock ?? (config.startTimeMs === undefined ? systemClock : new ManualClock(config.startTimeMs));
    this.chainName = config.chain ?? DEFAULTS.chain;
    this.autoLiquiditySat = config.autoLiquiditySat ?? DEFAULTS.autoLiquiditySat;
    this.dataRoot = config.dataDir ?? mkdtempSync(join(tmpdir(), 'comanda-node-sim-'));
    this.file = config.dataDir === undefined ? undefined : new JsonFile<NetworkState>(join(config.dataDir, 'node-sim-state.json'));
    this.saved = this.file ? JsonFile.readSync<NetworkState>(this.file.path) : undefined;
    this.chain = new SimChain(
      this.saved?.chain ?? { height: config.startHeight ?? DEFAULTS.startHeight, feerateSatByte: config.feerateSatByte ?? DEFAULTS.feerateSatByte, txs: [] },
    );
    this.lspPrivateKey = this.saved?.lspPrivateKey ?? randomHex(this.random, 32);
    this.lspNodeId = publicKeyHex(this.lspPrivateKey);
    this.webhooks = new WebhookSender({ ...DEFAULT_WEBHOOK_POLICY, ...config.webhook }, this.log);
  }

  async listen(nodeConfigs: readonly NodeConfig[]): Promise<void> {
    const names = new Set<string>();
    for (const nodeConfig of nodeConfigs) {
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(nodeConfig.name)) throw new ConfigError(`invalid node name "${nodeConfig.name}"`);
      if (names.has(nodeConfig.name)) throw new ConfigError(`duplicate node name "${nodeConfig.name}"`);
      names.add(nodeConfig.name);
      this.nodes.push(new SimNode(this.nodeState(nodeConfig), this));
    }
    this.changed();
    try {
      for (const [i, node] of this.nodes.entries()) {
        const server = await buildNodeServer(node, this.log.child({ node: node.name }));
        this.servers.push(server);
        const host = nodeConfigs[i].host ?? '127.0.0.1';
        await server.listen({ host, port: nodeConfigs[i].port ?? 0 });
        const address = server.server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        node.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      }
    } catch (error) {
      await this.close();
      throw error;
    }
    const interval = this.config.blockIntervalMs ?? (this.config.seed === undefined ? DEFAULTS.blockIntervalMs : 0);
    if (interval > 0) {
      this.blockTimer = setInterval(() => this.mineBlocks(1), interval);
      this.blockTimer.unref();
    }
  }

  /** The saved state of the node, or a new one; explicitly configured secrets win over saved ones. */
  private nodeState(c: NodeConfig): NodeState {
    const saved = this.saved?.nodes.find((n) => n.name === c.name);
    const base = saved ?? this.genesis(c);
    return {
      ...base,
      password: c.password ?? base.password,
      limitedPassword: c.limitedPassword ?? base.limitedPassword,
      webhookSecret: c.webhookSecret ?? base.webhookSecret,
      webhookUrls: [...(c.webhookUrls ?? [])],
    };
  }

  private genesis(c: NodeConfig): Omit<NodeState, 'webhookUrls'> {
    const privateKey = privateKeyFromSeed(c.seed ?? (this.config.seed === undefined ? randomHex(this.random, 32) : `${this.config.seed}/node/${c.name}`));
    const channelConfig = c.channel === undefined ? DEFAULTS.channel : c.channel;
    const amounts = channelConfig === null ? undefined : resolveChannel(c.name, channelConfig);
    const now = this.clock.now();
    const channel =
      amounts === undefined || amounts.balanceMsat + amounts.inboundMsat === 0
        ? null
        : { channelId: randomHex(this.random, 32), fundingTxId: randomHex(this.random, 32), shortChannelId: `${this.chain.height}x1x0`, state: 'Normal' as const, ...amounts };
    if (channel) this.chain.broadcast({ txId: channel.fundingTxId, kind: 'funding', owner: c.name, feeSat: 0, vsize: 0, createdAt: now, confirmedHeight: this.chain.height });
    return {
      name: c.name,
      privateKey,
      // Generated as the real node does at first start: 32 random bytes in hex.
      password: randomHex(this.random, 32),
      limitedPassword: randomHex(this.random, 32),
      webhookSecret: randomHex(this.random, 32),
      lnAddressUser: (c.lnAddressUser ?? c.name).toLowerCase(),
      channel,
      feeCreditMsat: 0,
      openingBalanceMsat: channel?.balanceMsat ?? 0,
      openedAt: now,
      offerMetadata: randomHex(this.random, 16),
      incoming: [],
      outgoing: [],
      withdrawLinks: [],
      loginChallenges: [],
    };
  }

  node(name: string): SimNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node named ${name}`);
    return node;
  }

  nodeById(nodeId: string): SimNode | undefined {
    return this.nodes.find((n) => n.nodeId === nodeId);
  }

  mineBlocks(count: number): void {
    const confirmed = this.chain.mine(count);
    for (const node of this.nodes) onConfirmed(node, confirmed);
    this.changed();
  }

  changed(): void {
    this.file?.save({
      version: 1,
      lspPrivateKey: this.lspPrivateKey,
      chain: this.chain.state,
      nodes: this.nodes.map(({ state: { webhookUrls: _urls, ...rest } }) => rest),
    });
  }

  paymentReceived(node: SimNode, payment: IncomingPayment): void {
    const urls = [...node.webhookUrls, ...(payment.webhookUrl ? [payment.webhookUrl] : [])];
    if (urls.length > 0) this.webhooks.send(urls, paymentReceivedEvent(payment), node.webhookSecret);
  }

  async close(): Promise<void> {
    clearInterval(this.blockTimer);
    await Promise.allSettled(this.servers.map((s) => s.close()));
    await this.webhooks.close();
    await this.file?.flush();
    if (this.config.dataDir === undefined) rmSync(this.dataRoot, { recursive: true, force: true });
  }
}
