/**
 * The supported currencies have fixed ids, identical on every installation, so clients may keep
 * them. MXN is the base currency of a new restaurant.
 */
export const CURRENCIES = {
  MXN: { id: 'f1a7c2e0-3b5d-4c8e-9a61-2d4b6e8f0a01', acronym: 'MXN', name: 'Mexican peso', decimals: 2 },
  USD: { id: '5c9e1b7a-8d2f-4e3a-b6c4-7f0a1d3e5b02', acronym: 'USD', name: 'US dollar', decimals: 2 },
  BTC: { id: '9d4f6a2c-1e8b-4a7d-8c3f-0b5e7a9d1c03', acronym: 'BTC', name: 'Bitcoin', decimals: 8 },
} as const;

export const BASE_CURRENCY = CURRENCIES.MXN;
