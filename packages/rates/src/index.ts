export * from './provider.js';
export * from './exchange-rates.js';
export * from './fixed.js';
export * from './kraken.js';
export * from './coinbase.js';
export * from './coingecko.js';
export * from './open.js';
