import t from 'tap';
import { type MenuEvent, dishArchived, dishPrice, fold, menu } from '../src/index.js';
import { given } from './given.js';

const DRINKS = '11111111-1111-4111-8111-111111111111';
const MAINS = '22222222-2222-4222-8222-222222222222';
const LEMONADE = '33333333-3333-4333-8333-333333333333';
const TACOS = '44444444-4444-4444-8444-444444444444';

const drinksAdded: MenuEvent = { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks' } };
const mainsAdded: MenuEvent = { type: 'CategoryAdded', data: { categoryId: MAINS, name: 'Mains' } };
const lemonadeAdded: MenuEvent = { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS } };

t.test('a category is added once; its name is unique ignoring case', async (t) => {
  t.same(given(menu, []).when({ type: 'addCategory', categoryId: DRINKS, name: 'Drinks' }), { events: [drinksAdded] });
  t.same(given(menu, [drinksAdded]).when({ type: 'addCategory', categoryId: MAINS, name: 'DRINKS' }), {
    error: { kind: 'conflict', message: 'A dish category named Drinks already exists' },
  });
  t.same(given(menu, [drinksAdded]).when({ type: 'addCategory', categoryId: DRINKS, name: 'Other' }), {
    error: { kind: 'conflict', message: 'This dish category already exists' },
  });
  t.same(given(menu, []).when({ type: 'addCategory', categoryId: DRINKS, name: '  ' }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'name', message: 'must not be blank' }] } },
  });
  t.match(given(menu, []).when({ type: 'addCategory', categoryId: DRINKS, name: 'x'.repeat(101) }), {
    error: { kind: 'validation', details: { errors: [{ field: 'name', message: /at most 100/ }] } },
  });
});

t.test('a category is renamed, keeping names unique; renaming to its own name changes nothing', async (t) => {
  const g = given(menu, [drinksAdded, mainsAdded]);
  t.same(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Beverages' }), {
    events: [{ type: 'CategoryRenamed', data: { categoryId: DRINKS, name: 'Beverages' } }],
  });
  t.same(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'drinks' }), {
    events: [{ type: 'CategoryRenamed', data: { categoryId: DRINKS, name: 'drinks' } }],
  }, 'changing only the case of its own name is allowed');
  t.same(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Drinks' }), { events: [] });
  t.match(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'MAINS' }), { error: { kind: 'conflict', message: /Mains already exists/ } });
  t.match(g.when({ type: 'renameCategory', categoryId: TACOS, name: 'X' }), { error: { kind: 'not_found' } });
});

t.test('If-Match pins the version of the category or dish, not of the whole menu', async (t) => {
  const renamed: MenuEvent = { type: 'CategoryRenamed', data: { categoryId: DRINKS, name: 'Beverages' } };
  const g = given(menu, [drinksAdded, mainsAdded, renamed, lemonadeAdded]);
  t.equal(g.state.categories[DRINKS]!.version, 2);
  t.equal(g.state.categories[MAINS]!.version, 1);
  t.match(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Juices', ifMatch: 1 }), { error: { kind: 'precondition' } });
  t.match(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Juices', ifMatch: 2 }), { events: [{ type: 'CategoryRenamed' }] });
  t.match(g.when({ type: 'renameCategory', categoryId: MAINS, name: 'Platos', ifMatch: 1 }), { events: [{ type: 'CategoryRenamed' }] });
  t.match(g.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 4000, categoryId: DRINKS, ifMatch: 2 }), {
    error: { kind: 'precondition' },
  });
});

t.test('a category that dishes use cannot be removed', async (t) => {
  t.same(given(menu, [drinksAdded, lemonadeAdded]).when({ type: 'removeCategory', categoryId: DRINKS }), {
    error: { kind: 'conflict', message: 'Dish category Drinks is used by 1 dish: move or delete them first', details: { dish_count: 1 } },
  });
  const moved: MenuEvent = { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: MAINS } };
  t.same(given(menu, [drinksAdded, mainsAdded, lemonadeAdded, moved]).when({ type: 'removeCategory', categoryId: DRINKS }), {
    events: [{ type: 'CategoryRemoved', data: { categoryId: DRINKS } }],
  });
  t.match(given(menu, []).when({ type: 'removeCategory', categoryId: DRINKS }), { error: { kind: 'not_found', message: 'Resource not found' } });
});

t.test('a dish needs a name, a positive price in cents and an existing category', async (t) => {
  t.same(given(menu, [drinksAdded]).when({ type: 'addDish', dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS }), {
    events: [lemonadeAdded],
  });
  t.same(given(menu, [drinksAdded]).when({ type: 'addDish', dishId: LEMONADE, name: '', price: 0, categoryId: MAINS }), {
    error: {
      kind: 'validation',
      message: 'Validation failed',
      details: {
        errors: [
          { field: 'name', message: 'must not be blank' },
          { field: 'price', message: 'must be a positive amount with at most two decimals' },
          { field: 'category_id', message: 'must reference an existing dish category' },
        ],
      },
    },
  });
  for (const price of [-100, 12.5, Number.NaN]) {
    t.match(given(menu, [drinksAdded]).when({ type: 'addDish', dishId: LEMONADE, name: 'Lemonade', price, categoryId: DRINKS }), {
      error: { kind: 'validation', details: { errors: [{ field: 'price' }] } },
    }, `price ${price} cents is refused`);
  }
  t.match(given(menu, [drinksAdded, lemonadeAdded]).when({ type: 'addDish', dishId: LEMONADE, name: 'Other', price: 100, categoryId: DRINKS }), {
    error: { kind: 'conflict' },
  });
});

t.test('a dish is updated only when something changed, and removed', async (t) => {
  const g = given(menu, [drinksAdded, mainsAdded, lemonadeAdded]);
  t.same(g.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS }), { events: [] });
  t.same(g.when({ type: 'updateDish', dishId: LEMONADE, name: 'Big lemonade', price: 4550, categoryId: MAINS }), {
    events: [{ type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Big lemonade', price: 4550, categoryId: MAINS } }],
  });
  t.match(g.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: TACOS }), {
    error: { kind: 'validation', details: { errors: [{ field: 'category_id' }] } },
  });
  t.match(g.when({ type: 'updateDish', dishId: TACOS, name: 'Tacos', price: 100, categoryId: MAINS }), { error: { kind: 'not_found' } });
  t.same(g.when({ type: 'removeDish', dishId: LEMONADE }), { events: [{ type: 'DishRemoved', data: { dishId: LEMONADE } }] });
  t.match(g.when({ type: 'removeDish', dishId: TACOS }), { error: { kind: 'not_found' } });
});

t.test('state: versions count the events that touched each entity; removal forgets it', async (t) => {
  const events: MenuEvent[] = [
    drinksAdded, lemonadeAdded,
    { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 3900, categoryId: DRINKS } },
    { type: 'DishAdded', data: { dishId: TACOS, name: 'Tacos', price: 9000, categoryId: DRINKS } },
    { type: 'DishRemoved', data: { dishId: TACOS } },
  ];
  const state = fold(menu, events);
  t.same(state.dishes[LEMONADE], { id: LEMONADE, name: 'Lemonade', price: 3900, categoryId: DRINKS, stationId: null, modifierGroupIds: [], allergens: [], taxRateId: null, description: '', version: 2 });
  t.same(Object.keys(state.dishes), [LEMONADE]);
  t.equal(dishPrice(state, LEMONADE), 3900, 'the current price, in cents, for the orders that take it');
  t.equal(dishPrice(state, TACOS), null, 'a removed dish has no price any more');
  t.same(fold(menu, [...events, { type: 'DishRemoved', data: { dishId: LEMONADE } }, { type: 'CategoryRemoved', data: { categoryId: DRINKS } }]), {
    categories: {}, dishes: {}, stations: {}, defaultStationId: null, stationSeq: 0, modifierGroups: {}, taxRates: {}, priceLevels: {},
  });
});

t.test("a category's place on the menu: set when added or changed, a whole number from 0 to 9999, 0 unless set", async (t) => {
  t.same(given(menu, []).when({ type: 'addCategory', categoryId: DRINKS, name: 'Drinks', displayOrder: 0 }), { events: [drinksAdded] }, '0 is what a category nobody ordered has: not written');
  const drinksLast: MenuEvent = { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks', displayOrder: 9 } };
  t.same(given(menu, []).when({ type: 'addCategory', categoryId: DRINKS, name: 'Drinks', displayOrder: 9 }), { events: [drinksLast] });
  const g = given(menu, [drinksLast, mainsAdded]);
  t.same([g.state.categories[DRINKS]!.displayOrder, g.state.categories[MAINS]!.displayOrder], [9, 0]);
  const moved: MenuEvent = { type: 'CategoryDisplayOrderChanged', data: { categoryId: MAINS, displayOrder: 1 } };
  t.same(g.when({ type: 'renameCategory', categoryId: MAINS, name: 'Mains', displayOrder: 1 }), { events: [moved] });
  t.same(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Drinks', displayOrder: 9 }), { events: [] }, 'the same place changes nothing');
  t.same(g.when({ type: 'renameCategory', categoryId: DRINKS, name: 'Drinks' }), { events: [] }, 'left out: kept');
  const after = given(menu, [drinksLast, mainsAdded, moved]).state.categories[MAINS]!;
  t.same([after.displayOrder, after.version], [1, 2], 'a move is a new version of the category');
  for (const bad of [-1, 1.5, 10_000]) {
    t.same(g.when({ type: 'renameCategory', categoryId: MAINS, name: 'Mains', displayOrder: bad }), {
      error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'display_order', message: 'must be a whole number from 0 to 9999' }] } },
    }, `${bad} refused`);
  }
});

t.test("a dish's description: trimmed, at most 500 characters, kept by a change that leaves it out, '' takes it off", async (t) => {
  const g = given(menu, [drinksAdded]);
  const withIt = { type: 'addDish' as const, dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS, description: '  Fresh lemons, cane sugar ' };
  const described: MenuEvent = { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS, description: 'Fresh lemons, cane sugar' } };
  t.same(g.when(withIt), { events: [described] });
  t.same(g.when({ ...withIt, description: '   ' }), { events: [lemonadeAdded] }, 'none given: the event a seed client writes');
  t.same(g.when({ ...withIt, description: 'x'.repeat(501) }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'description', message: 'must be at most 500 characters' }] } },
  });
  const h = given(menu, [drinksAdded, described]);
  t.equal(h.state.dishes[LEMONADE]!.description, 'Fresh lemons, cane sugar');
  t.same(h.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS }), { events: [] }, 'left out: kept, nothing changed');
  t.same(h.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 3800, categoryId: DRINKS }), {
    events: [{ type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 3800, categoryId: DRINKS, description: 'Fresh lemons, cane sugar' } }],
  }, 'a new price keeps the description');
  t.same(h.when({ type: 'updateDish', dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS, description: '' }), {
    events: [{ type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS } }],
  }, "'' takes it off");
  t.equal(given(menu, [drinksAdded, lemonadeAdded]).state.dishes[LEMONADE]!.description, '', 'a dish from before descriptions has none');
});

t.test('a dish archived is kept, off the menu: archived once, restored once, its version moving; a change keeps it archived', async (t) => {
  const g = given(menu, [drinksAdded, lemonadeAdded]);
  const archive = { type: 'archiveDish' as const, dishId: LEMONADE, by: 'm1', at: 7 };
  const archived: MenuEvent = { type: 'DishArchived', data: { dishId: LEMONADE, by: 'm1', at: 7 } };
  t.same(g.when(archive), { events: [archived] });
  t.match(g.when({ ...archive, ifMatch: 5 }), { error: { kind: 'precondition' } }, 'a stale If-Match');
  t.match(g.when({ ...archive, dishId: TACOS }), { error: { kind: 'not_found' } });
  const off = given(menu, [drinksAdded, lemonadeAdded, archived]);
  t.same(off.when(archive), { events: [] }, 'archived twice: nothing more');
  t.equal(dishArchived(off.state, LEMONADE), true);
  t.equal(off.state.dishes[LEMONADE]?.version, 2);
  t.equal(dishPrice(off.state, LEMONADE), 3500, 'its name and price stay known');
  const changed = fold(menu, [drinksAdded, lemonadeAdded, archived, { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Limonada', price: 3600, categoryId: DRINKS } }]);
  t.equal(dishArchived(changed, LEMONADE), true, 'renamed, still archived');
  const restore = { type: 'restoreDish' as const, dishId: LEMONADE, by: 'm1', at: 8 };
  t.same(off.when(restore), { events: [{ type: 'DishRestored', data: { dishId: LEMONADE, by: 'm1', at: 8 } }] });
  t.same(g.when(restore), { events: [] }, 'restoring a dish on the menu: nothing');
  const back = fold(menu, [drinksAdded, lemonadeAdded, archived, { type: 'DishRestored', data: { dishId: LEMONADE, by: 'm1', at: 8 } }]);
  t.same(back.dishes[LEMONADE], { ...fold(menu, [drinksAdded, lemonadeAdded]).dishes[LEMONADE], version: 3 });
});
