import type { Decider } from '../decider.js';
import { conflict, validationFailed } from '../errors.js';

/**
 * Whether a dish may still be ordered today ("86"): sold out now, or a count of portions left that
 * goes down as it is ordered. Each dish has its own stream (`dish-stock-<id>`), never the menu's: an
 * order holds its portions there before the order is written (as seating holds a table), so orders for
 * different dishes never wait for each other, and the menu stream is not a restaurant-wide hot spot
 * written on every order. A setting holds for the business day it was made on (the restaurant's time
 * zone): at the next day's start the dish is back on sale without anyone writing anything.
 */
export const dishStockStream = (dishId: string) => `dish-stock-${dishId}`;

/** The most portions a count may start from (a typo guard, far above any kitchen's prep). */
export const MAX_PORTIONS = 10_000;

export interface DishStock {
  /** The business day (YYYY-MM-DD) the last setting was made on; null: on sale, no limit. */
  day: string | null;
  soldOut: boolean;
  /** Portions left on `day`; null: no count. */
  remaining: number | null;
  /** Portions held by each order (or addition) since the last setting: a retry holds nothing twice. */
  held: Record<string, number>;
}

export type DishStockEvent =
  | { type: 'DishSoldOut'; data: { dishId: string; day: string; by: string | null } }
  | { type: 'DishCounted'; data: { dishId: string; day: string; remaining: number; by: string | null } }
  | { type: 'DishBackOnSale'; data: { dishId: string; by: string | null } }
  | { type: 'PortionsHeld'; data: { dishId: string; holdId: string; portions: number; remaining: number } }
  | { type: 'PortionsGivenBack'; data: { dishId: string; holdId: string; portions: number; remaining: number } };

export type DishStockCommand =
  | { type: 'markSoldOut'; dishId: string; day: string; by: string | null }
  | { type: 'setCount'; dishId: string; day: string; remaining: number; by: string | null }
  | { type: 'putBackOnSale'; dishId: string; day: string; by: string | null }
  /** `dishName` names the dish in the refusal a waiter reads. */
  | { type: 'holdPortions'; dishId: string; dishName: string; holdId: string; portions: number; day: string }
  | { type: 'giveBack'; dishId: string; holdId: string };

/** The dish as it stands on `day`: a setting from an earlier day no longer counts. */
export function stockOn(state: DishStock, day: string): { soldOut: boolean; remaining: number | null } {
  if (state.day !== day) return { soldOut: false, remaining: null };
  return { soldOut: state.soldOut || state.remaining === 0, remaining: state.soldOut ? 0 : state.remaining };
}

export const dishStock: Decider<DishStockCommand, DishStockEvent, DishStock> = {
  initialState: () => ({ day: null, soldOut: false, remaining: null, held: {} }),
  // A counted dish's stream grows by a hold per order, day after day: a cold start need not fold them all.
  snapshot: { name: 'dishStock', version: 1 },

  decide(command, state) {
    switch (command.type) {
      case 'markSoldOut': {
        if (state.day === command.day && state.soldOut) return [];
        return [{ type: 'DishSoldOut', data: { dishId: command.dishId, day: command.day, by: command.by } }];
      }
      case 'setCount': {
        if (!Number.isInteger(command.remaining) || command.remaining < 0 || command.remaining > MAX_PORTIONS) {
          throw validationFailed([{ field: 'remaining', message: `must be a whole number of portions from 0 to ${MAX_PORTIONS}` }]);
        }
        const now = stockOn(state, command.day);
        if (!state.soldOut && now.remaining === command.remaining) return [];
        return [{ type: 'DishCounted', data: { dishId: command.dishId, day: command.day, remaining: command.remaining, by: command.by } }];
      }
      case 'putBackOnSale': {
        const now = stockOn(state, command.day);
        if (!now.soldOut && now.remaining === null) return [];
        return [{ type: 'DishBackOnSale', data: { dishId: command.dishId, by: command.by } }];
      }
      case 'holdPortions': {
        const now = stockOn(state, command.day);
        // Nothing is written for a dish without a limit: ordering it never touches its stream.
        if (now.remaining === null && !now.soldOut) return [];
        if (state.held[command.holdId] !== undefined) return [];
        if (now.soldOut) throw conflict(`${command.dishName} is sold out`, { code: 'sold_out', dish_id: command.dishId, dish_name: command.dishName, remaining: 0 });
        const left = now.remaining!;
        if (command.portions > left) {
          throw conflict(`Only ${left} ${command.dishName} left`, { code: 'sold_out', dish_id: command.dishId, dish_name: command.dishName, remaining: left });
        }
        return [{ type: 'PortionsHeld', data: { dishId: command.dishId, holdId: command.holdId, portions: command.portions, remaining: left - command.portions } }];
      }
      case 'giveBack': {
        const portions = state.held[command.holdId];
        if (portions === undefined || state.remaining === null) return [];
        return [{ type: 'PortionsGivenBack', data: { dishId: command.dishId, holdId: command.holdId, portions, remaining: state.remaining + portions } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DishSoldOut':
        return { day: event.data.day, soldOut: true, remaining: null, held: {} };
      case 'DishCounted':
        return { day: event.data.day, soldOut: false, remaining: event.data.remaining, held: {} };
      case 'DishBackOnSale':
        return { day: null, soldOut: false, remaining: null, held: {} };
      case 'PortionsHeld':
        return { ...state, remaining: event.data.remaining, held: { ...state.held, [event.data.holdId]: event.data.portions } };
      case 'PortionsGivenBack': {
        const { [event.data.holdId]: _, ...held } = state.held;
        return { ...state, remaining: event.data.remaining, held };
      }
    }
  },
};
