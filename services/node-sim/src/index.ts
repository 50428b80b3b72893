export { startNetwork, type SimNetwork } from './network.js';
export { SimNode, NODE_VERSION } from './node.js';
export { DEFAULT_NODES, DEFAULTS, ConfigError, type NetworkConfig, type NodeConfig, type ChannelConfig } from './config.js';
export { loadConfig } from './config-load.js';
export { ManualClock, systemClock, type Clock } from './runtime.js';
export { createWithdrawLink, createLoginChallenge, loggedInKey } from './lnurl/service.js';
export { REASON } from './payments.js';
export { ONCHAIN_TEXT } from './onchain.js';
export { lightningFeeMsat, liquidityFees } from './fees.js';
