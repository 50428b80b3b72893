import type { Decider } from '../decider.js';
import { conflict, validationFailed } from '../errors.js';
import { BASE_CURRENCY, CURRENCIES } from '../currencies.js';

/**
 * The restaurant's base currency (`currency` stream): amounts are in it, each ticket records the one
 * it was issued in. It changes only while no ticket is unpaid (the workflow counts them and passes the
 * count: a ticket issued in the same instant is the one race left, and it keeps its own currency id).
 */
export const CURRENCY_STREAM = 'currency';

export interface BaseCurrency { currencyId: string }
export type BaseCurrencyEvent = { type: 'BaseCurrencyChanged'; data: { from: string; to: string } };
export type BaseCurrencyCommand = { type: 'setBaseCurrency'; currencyId: string; unpaidTickets: number };

export const currencyById = (id: string) => Object.values(CURRENCIES).find((c) => c.id === id);

export const baseCurrency: Decider<BaseCurrencyCommand, BaseCurrencyEvent, BaseCurrency> = {
  initialState: () => ({ currencyId: BASE_CURRENCY.id }),
  decide(command, state) {
    if (!currencyById(command.currencyId)) throw validationFailed([{ field: 'currency_id', message: 'must be the id of MXN, USD or BTC' }]);
    if (command.currencyId === state.currencyId) return [];
    if (command.unpaidTickets > 0) throw conflict(`The base currency cannot change while tickets are unpaid (${command.unpaidTickets})`);
    return [{ type: 'BaseCurrencyChanged', data: { from: state.currencyId, to: command.currencyId } }];
  },
  evolve: (_state, event) => ({ currencyId: event.data.to }),
};
