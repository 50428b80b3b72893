import t from 'tap';
import { type DishStockEvent, dishStock, stockOn } from '../src/index.js';
import { given } from './given.js';

const GUAC = '11111111-1111-4111-8111-111111111111';
const TODAY = '2026-11-28';
const TOMORROW = '2026-11-29';
const soldOut: DishStockEvent = { type: 'DishSoldOut', data: { dishId: GUAC, day: TODAY, by: 'm1' } };
const counted = (remaining: number): DishStockEvent => ({ type: 'DishCounted', data: { dishId: GUAC, day: TODAY, remaining, by: 'm1' } });
const held = (holdId: string, portions: number, remaining: number): DishStockEvent => ({ type: 'PortionsHeld', data: { dishId: GUAC, holdId, portions, remaining } });
const hold = (holdId: string, portions: number, day = TODAY) => ({ type: 'holdPortions' as const, dishId: GUAC, dishName: 'Guacamole', holdId, portions, day });

t.test('a dish without a setting is on sale and ordering it writes nothing', async (t) => {
  t.same(given(dishStock, []).when(hold('o1', 5)), { events: [] });
  t.same(stockOn(dishStock.initialState(), TODAY), { soldOut: false, remaining: null });
});

t.test('sold out now: every order is refused naming the dish, until it is back on sale', async (t) => {
  t.same(given(dishStock, []).when({ type: 'markSoldOut', dishId: GUAC, day: TODAY, by: 'm1' }), { events: [soldOut] });
  t.same(given(dishStock, [soldOut]).when({ type: 'markSoldOut', dishId: GUAC, day: TODAY, by: 'm1' }), { events: [] }, 'idempotent');
  t.same(given(dishStock, [soldOut]).when(hold('o1', 1)), {
    error: { kind: 'conflict', message: 'Guacamole is sold out', details: { code: 'sold_out', dish_id: GUAC, dish_name: 'Guacamole', remaining: 0 } },
  });
  const back: DishStockEvent = { type: 'DishBackOnSale', data: { dishId: GUAC, by: 'm1' } };
  t.same(given(dishStock, [soldOut]).when({ type: 'putBackOnSale', dishId: GUAC, day: TODAY, by: 'm1' }), { events: [back] });
  t.same(given(dishStock, [soldOut, back]).when(hold('o1', 1)), { events: [] }, 'back on sale: no limit');
  t.same(given(dishStock, []).when({ type: 'putBackOnSale', dishId: GUAC, day: TODAY, by: 'm1' }), { events: [] }, 'already on sale');
});

t.test('a count goes down with the portions ordered, whatever the orders, and is sold out at zero', async (t) => {
  t.same(given(dishStock, []).when({ type: 'setCount', dishId: GUAC, day: TODAY, remaining: 3, by: 'm1' }), { events: [counted(3)] });
  t.same(given(dishStock, [counted(3)]).when(hold('o1', 2)), { events: [held('o1', 2, 1)] });
  t.same(given(dishStock, [counted(3), held('o1', 2, 1)]).when(hold('o2', 2)), {
    error: { kind: 'conflict', message: 'Only 1 Guacamole left', details: { code: 'sold_out', dish_id: GUAC, dish_name: 'Guacamole', remaining: 1 } },
  }, 'never more than what is left');
  t.same(given(dishStock, [counted(3), held('o1', 2, 1)]).when(hold('o2', 1)), { events: [held('o2', 1, 0)] });
  const gone = given(dishStock, [counted(3), held('o1', 2, 1), held('o2', 1, 0)]);
  t.same(stockOn(gone.state, TODAY), { soldOut: true, remaining: 0 });
  t.match(gone.when(hold('o3', 1)), { error: { kind: 'conflict', message: 'Guacamole is sold out' } });
  t.same(given(dishStock, [counted(3), held('o1', 2, 1)]).when(hold('o1', 2)), { events: [] }, 'a retried order holds nothing twice');
  t.same(given(dishStock, []).when({ type: 'setCount', dishId: GUAC, day: TODAY, remaining: -1, by: 'm1' }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'remaining', message: 'must be a whole number of portions from 0 to 10000' }] } },
  });
  t.same(stockOn(given(dishStock, [counted(0)]).state, TODAY), { soldOut: true, remaining: 0 }, 'a count of 0 is sold out');
});

t.test('portions come back when the order that held them was not written', async (t) => {
  const back: DishStockEvent = { type: 'PortionsGivenBack', data: { dishId: GUAC, holdId: 'o1', portions: 2, remaining: 3 } };
  t.same(given(dishStock, [counted(3), held('o1', 2, 1)]).when({ type: 'giveBack', dishId: GUAC, holdId: 'o1' }), { events: [back] });
  t.same(given(dishStock, [counted(3), held('o1', 2, 1), back]).when({ type: 'giveBack', dishId: GUAC, holdId: 'o1' }), { events: [] }, 'given back once');
  t.same(given(dishStock, [counted(3), held('o1', 2, 1), counted(5)]).when({ type: 'giveBack', dishId: GUAC, holdId: 'o1' }), { events: [] }, 'a new count starts afresh');
});

t.test('at the next business day the dish is back on sale without a write', async (t) => {
  t.same(stockOn(given(dishStock, [soldOut]).state, TOMORROW), { soldOut: false, remaining: null });
  t.same(given(dishStock, [soldOut]).when(hold('o1', 1, TOMORROW)), { events: [] });
  t.same(given(dishStock, [counted(0)]).when(hold('o1', 1, TOMORROW)), { events: [] });
  t.same(given(dishStock, [soldOut]).when({ type: 'markSoldOut', dishId: GUAC, day: TOMORROW, by: 'm1' }), {
    events: [{ type: 'DishSoldOut', data: { dishId: GUAC, day: TOMORROW, by: 'm1' } }],
  }, 'sold out again the next day is a new setting');
});
