import { readFileSync } from 'node:fs';
import { chainByName, type ChainName } from '@comanda/lightning';
import { ConfigError, DEFAULT_NODES, type NetworkConfig, type NodeConfig } from './config.js';

// The standalone simulator's configuration: an optional JSON file (NODE_SIM_CONFIG) with the shape of
// NetworkConfig, then environment variables on top. README.md lists them.

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): NetworkConfig {
  const file = env.NODE_SIM_CONFIG ? readJson(env.NODE_SIM_CONFIG) : {};
  const nodes = (file.nodes ?? DEFAULT_NODES).map((node) => nodeFromEnv(node, env));
  const chain = env.NODE_SIM_CHAIN ?? file.chain;
  if (chain !== undefined && !chainByName(chain)) throw new ConfigError(`NODE_SIM_CHAIN: unknown chain "${chain}"`);
  return {
    ...file,
    nodes,
    chain: chain as ChainName | undefined,
    seed: env.NODE_SIM_SEED ?? file.seed,
    dataDir: env.NODE_SIM_DATA_DIR ?? file.dataDir,
    startTimeMs: int(env, 'NODE_SIM_START_TIME_MS') ?? file.startTimeMs,
    blockIntervalMs: int(env, 'NODE_SIM_BLOCK_INTERVAL_MS') ?? file.blockIntervalMs,
    feerateSatByte: int(env, 'NODE_SIM_FEERATE_SAT_BYTE') ?? file.feerateSatByte,
    autoLiquiditySat: int(env, 'NODE_SIM_AUTO_LIQUIDITY_SAT') ?? file.autoLiquiditySat,
  };
}

function readJson(path: string): NetworkConfig {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    const config = parsed as NetworkConfig;
    if (config.nodes !== undefined && (!Array.isArray(config.nodes) || config.nodes.some((n) => typeof n?.name !== 'string'))) {
      throw new Error('"nodes" must be an array of objects with a "name"');
    }
    return config;
  } catch (error) {
    throw new ConfigError(`NODE_SIM_CONFIG: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** NODE_SIM_<NAME>_PORT and friends, NAME being the node name in upper case with - as _. */
function nodeFromEnv(node: NodeConfig, env: Env): NodeConfig {
  const prefix = `NODE_SIM_${node.name.toUpperCase().replace(/-/g, '_')}_`;
  const urls = env[`${prefix}WEBHOOK_URLS`];
  return {
    ...node,
    host: env[`${prefix}HOST`] ?? env.NODE_SIM_HOST ?? node.host,
    port: int(env, `${prefix}PORT`) ?? node.port,
    password: env[`${prefix}PASSWORD`] ?? node.password,
    limitedPassword: env[`${prefix}LIMITED_PASSWORD`] ?? node.limitedPassword,
    webhookSecret: env[`${prefix}WEBHOOK_SECRET`] ?? node.webhookSecret,
    webhookUrls: urls === undefined ? node.webhookUrls : urls.split(',').map((u) => u.trim()).filter(Boolean),
    seed: env[`${prefix}SEED`] ?? node.seed,
  };
}

function int(env: Env, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new ConfigError(`${name}: expected a non-negative integer, got "${text}"`);
  return Number(text);
}
