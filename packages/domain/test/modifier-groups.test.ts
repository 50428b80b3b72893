import t from 'tap';
import { type MenuEvent, type ModifierGroupDetails, chooseModifiers, fold, menu } from '../src/index.js';
import { given } from './given.js';

const MAINS = '22222222-2222-4222-8222-222222222222';
const TACOS = '44444444-4444-4444-8444-444444444444';
const SALSA = '55555555-5555-4555-8555-555555555555';
const EXTRAS = '66666666-6666-4666-8666-666666666666';

const salsa: ModifierGroupDetails = {
  name: 'Salsa', minChoices: 1, maxChoices: 1,
  options: [{ id: 'verde', name: 'Verde', priceDeltaCents: 0 }, { id: 'roja', name: 'Roja', priceDeltaCents: 0 }],
};
const extras: ModifierGroupDetails = {
  name: 'Extras', minChoices: 0, maxChoices: 2,
  options: [{ id: 'guac', name: 'Guacamole', priceDeltaCents: 1500 }, { id: 'queso', name: 'Queso', priceDeltaCents: 1000 }, { id: 'cebolla', name: 'Sin cebolla', priceDeltaCents: 0 }],
};
const mainsAdded: MenuEvent = { type: 'CategoryAdded', data: { categoryId: MAINS, name: 'Mains' } };
const salsaCreated: MenuEvent = { type: 'ModifierGroupCreated', data: { groupId: SALSA, ...salsa } };
const extrasCreated: MenuEvent = { type: 'ModifierGroupCreated', data: { groupId: EXTRAS, ...extras } };
const tacos = { dishId: TACOS, name: 'Tacos', price: 2550, categoryId: MAINS };
const tacosWithGroups: MenuEvent = { type: 'DishAdded', data: { ...tacos, modifierGroupIds: [SALSA, EXTRAS], allergens: ['milk', 'gluten'] } };

t.test('a modifier group is created with its options; the rules of its bounds and options', async (t) => {
  t.same(given(menu, []).when({ type: 'createModifierGroup', groupId: SALSA, ...salsa }), { events: [salsaCreated] });
  t.same(given(menu, [salsaCreated]).when({ type: 'createModifierGroup', groupId: EXTRAS, ...extras, name: 'SALSA' }), { error: { kind: 'conflict', message: 'A modifier group named Salsa already exists' } });
  const bad = (over: Partial<ModifierGroupDetails>) => given(menu, []).when({ type: 'createModifierGroup', groupId: EXTRAS, ...extras, ...over });
  t.match(bad({ minChoices: 3, maxChoices: 2 }), { error: { kind: 'validation', details: { errors: [{ field: 'min_choices', message: 'must be at most max_choices' }] } } });
  t.match(bad({ maxChoices: 0, minChoices: 0 }), { error: { details: { errors: [{ field: 'max_choices' }] } } });
  t.match(bad({ minChoices: -1 }), { error: { details: { errors: [{ field: 'min_choices' }] } } });
  t.match(bad({ minChoices: 4, maxChoices: 5 }), { error: { details: { errors: [{ field: 'min_choices', message: 'must be at most the number of options' }] } } });
  t.match(bad({ options: [] }), { error: { details: { errors: [{ field: 'options' }] } } });
  t.match(bad({ options: [{ id: 'a', name: 'X', priceDeltaCents: -1 }] }), { events: [{ type: 'ModifierGroupCreated' }] }, 'an option may take money off');
  t.match(bad({ options: [{ id: 'a', name: 'X', priceDeltaCents: -1_000_000_000 }] }), { error: { details: { errors: [{ field: 'options[0].price_delta' }] } } });
  t.match(bad({ options: [{ id: 'a', name: 'X', priceDeltaCents: 1.5 }] }), { error: { details: { errors: [{ field: 'options[0].price_delta' }] } } });
  t.match(bad({ options: [{ id: 'a', name: 'X', priceDeltaCents: 0 }, { id: 'b', name: 'x', priceDeltaCents: 0 }] }), { error: { details: { errors: [{ field: 'options[1].name' }] } } });
  t.match(bad({ minChoices: 0, maxChoices: 1 }), { events: [{ type: 'ModifierGroupCreated' }] }, 'min 0 and max 1 are fine');
  t.match(given(menu, [salsaCreated]).when({ type: 'createModifierGroup', groupId: EXTRAS, ...extras, options: [{ id: 'verde', name: 'Verde', priceDeltaCents: 0 }] }), {
    error: { details: { errors: [{ field: 'options[0].id', message: 'is an option of Salsa' }] } },
  });
});

t.test('a group changes (If-Match on its version) and is removed only while no dish carries it', async (t) => {
  const g = given(menu, [mainsAdded, salsaCreated, extrasCreated, tacosWithGroups]);
  t.equal(g.state.modifierGroups[SALSA]!.version, 1);
  const renamed = { ...salsa, name: 'Salsas', maxChoices: 2 };
  t.same(g.when({ type: 'changeModifierGroup', groupId: SALSA, ifMatch: 1, ...renamed }), { events: [{ type: 'ModifierGroupChanged', data: { groupId: SALSA, ...renamed } }] });
  t.same(g.when({ type: 'changeModifierGroup', groupId: SALSA, ...salsa }), { events: [] }, 'no change, no event');
  t.match(g.when({ type: 'changeModifierGroup', groupId: SALSA, ifMatch: 2, ...renamed }), { error: { kind: 'precondition' } });
  t.match(g.when({ type: 'changeModifierGroup', groupId: 'nope', ...renamed }), { error: { kind: 'not_found' } });
  t.same(g.when({ type: 'removeModifierGroup', groupId: SALSA }), { error: { kind: 'conflict', message: 'Modifier group Salsa is used by 1 dish: take it off them first', details: { dish_count: 1 } } });
  const off = given(menu, [mainsAdded, salsaCreated, extrasCreated, tacosWithGroups, { type: 'DishUpdated', data: { ...tacos, modifierGroupIds: [EXTRAS] } }]);
  t.same(off.when({ type: 'removeModifierGroup', groupId: SALSA }), { events: [{ type: 'ModifierGroupRemoved', data: { groupId: SALSA } }] });
  t.notOk(fold(menu, [salsaCreated, { type: 'ModifierGroupRemoved', data: { groupId: SALSA } }]).modifierGroups[SALSA]);
});

t.test('a dish carries existing modifier groups and EU allergens; absent on a change: kept', async (t) => {
  const g = given(menu, [mainsAdded, salsaCreated, extrasCreated]);
  t.same(g.when({ type: 'addDish', ...tacos, modifierGroupIds: [SALSA, EXTRAS], allergens: ['milk', 'gluten'] }), {
    events: [{ type: 'DishAdded', data: { ...tacos, modifierGroupIds: [SALSA, EXTRAS], allergens: ['gluten', 'milk'] } }],
  }, 'allergens in the EU list order');
  t.same(g.when({ type: 'addDish', ...tacos }), { events: [{ type: 'DishAdded', data: tacos }] }, 'a seed dish writes the event it always wrote');
  t.match(g.when({ type: 'addDish', ...tacos, modifierGroupIds: ['nope'] }), { error: { details: { errors: [{ field: 'modifier_group_ids' }] } } });
  t.match(g.when({ type: 'addDish', ...tacos, allergens: ['gluten', 'avocado'] }), { error: { details: { errors: [{ field: 'allergens', message: /avocado/ }] } } });
  const withDish = given(menu, [mainsAdded, salsaCreated, extrasCreated, tacosWithGroups]);
  t.same(withDish.state.dishes[TACOS]!.allergens, ['gluten', 'milk']);
  t.same(withDish.when({ type: 'updateDish', ...tacos }), { events: [] }, 'a seed PUT keeps groups and allergens');
  t.same(withDish.when({ type: 'updateDish', ...tacos, allergens: [] }), { events: [{ type: 'DishUpdated', data: { ...tacos, modifierGroupIds: [SALSA, EXTRAS] } }] });
  const old = fold(menu, [mainsAdded, { type: 'DishAdded', data: tacos }]);
  t.same([old.dishes[TACOS]!.modifierGroupIds, old.dishes[TACOS]!.allergens], [[], []], 'a dish added before: none');
});

t.test('choosing modifiers: options of the dish\'s groups, each group within its bounds, priced now', async (t) => {
  const state = fold(menu, [mainsAdded, salsaCreated, extrasCreated, tacosWithGroups]);
  t.same(chooseModifiers(state, TACOS, ['verde', 'guac'], 'dishes[0]'), {
    modifiers: [{ groupId: SALSA, optionId: 'verde', name: 'Verde', priceDeltaCents: 0 }, { groupId: EXTRAS, optionId: 'guac', name: 'Guacamole', priceDeltaCents: 1500 }],
    errors: [],
  });
  t.same(chooseModifiers(state, TACOS, [], 'dishes[0]').errors, [{ field: 'dishes[0].modifiers', message: 'Salsa: choose 1 (chosen: 0)' }]);
  t.same(chooseModifiers(state, TACOS, ['verde', 'roja'], 'd').errors, [{ field: 'd.modifiers', message: 'Salsa: choose 1 (chosen: 2)' }]);
  t.same(chooseModifiers(state, TACOS, ['verde', 'guac', 'queso', 'cebolla'], 'd').errors, [{ field: 'd.modifiers', message: 'Extras: choose 0 to 2 (chosen: 3)' }]);
  t.same(chooseModifiers(state, TACOS, ['verde', 'zz'], 'd').errors, [{ field: 'd.modifiers[1]', message: 'zz is not an option of a modifier group this dish carries' }]);
  t.same(chooseModifiers(state, TACOS, ['verde', 'verde'], 'd').errors.map((e) => e.message), ['verde is chosen twice']);
  const plain = fold(menu, [mainsAdded, { type: 'DishAdded', data: tacos }, salsaCreated]);
  t.same(chooseModifiers(plain, TACOS, [], 'd'), { modifiers: [], errors: [] }, 'a dish without groups: nothing to choose');
  t.match(chooseModifiers(plain, TACOS, ['verde'], 'd').errors, [{ message: /not an option/ }], 'a group the dish does not carry');
});

t.test('an option that takes money off never takes a dish\'s portion below zero, whatever changes: group, dish or price', async (t) => {
  // Sin queso −5.00 and sin crema −3.00, up to two of them: at most 8.00 off a portion.
  const sin: ModifierGroupDetails = {
    name: 'Sin', minChoices: 0, maxChoices: 2,
    options: [{ id: 'queso', name: 'Sin queso', priceDeltaCents: -500 }, { id: 'crema', name: 'Sin crema', priceDeltaCents: -300 }, { id: 'sal', name: 'Sin sal', priceDeltaCents: 0 }],
  };
  const SIN = '77777777-7777-4777-8777-777777777777';
  const sinCreated: MenuEvent = { type: 'ModifierGroupCreated', data: { groupId: SIN, ...sin } };
  const cheap = { dishId: TACOS, name: 'Tacos', price: 800, categoryId: MAINS };
  const g = given(menu, [mainsAdded, sinCreated]);
  t.match(g.when({ type: 'addDish', ...cheap, modifierGroupIds: [SIN] }), { events: [{ type: 'DishAdded' }] }, '8.00 with 8.00 off at most: 0.00');
  t.same(g.when({ type: 'addDish', ...cheap, price: 799, modifierGroupIds: [SIN] }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'modifier_group_ids', message: 'Tacos at 7.99 would come to less than nothing with Sin (up to -8.00 a portion)' }] } },
  });

  const withDish = given(menu, [mainsAdded, sinCreated, { type: 'DishAdded', data: { ...cheap, modifierGroupIds: [SIN] } }]);
  t.same(withDish.when({ type: 'updateDish', ...cheap, price: 700 }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'price', message: 'Tacos at 7.00 would come to less than nothing with Sin (up to -8.00 a portion)' }] } },
  }, 'a dish repriced below what its options take off: refused');
  t.match(withDish.when({ type: 'updateDish', ...cheap, price: 900 }), { events: [{ type: 'DishUpdated' }] });
  t.same(withDish.when({ type: 'changeModifierGroup', groupId: SIN, ...sin, options: [{ id: 'queso', name: 'Sin queso', priceDeltaCents: -600 }, ...sin.options.slice(1)] }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'options', message: 'Tacos at 8.00 would come to less than nothing with Sin (up to -9.00 a portion)' }] } },
  }, 'an option made cheaper than a dish that carries it allows: refused');
  t.match(withDish.when({ type: 'changeModifierGroup', groupId: SIN, ...sin, maxChoices: 1 }), { events: [{ type: 'ModifierGroupChanged' }] }, 'one choice at most: 5.00 off');

  // A group that must be chosen counts its cheapest allowed choice, positive ones included.
  const size: ModifierGroupDetails = { name: 'Size', minChoices: 1, maxChoices: 1, options: [{ id: 'chico', name: 'Chico', priceDeltaCents: -200 }, { id: 'grande', name: 'Grande', priceDeltaCents: 300 }] };
  const SIZE = '88888888-8888-4888-8888-888888888888';
  const both = given(menu, [mainsAdded, sinCreated, { type: 'ModifierGroupCreated', data: { groupId: SIZE, ...size } }]);
  t.match(both.when({ type: 'addDish', ...cheap, price: 1000, modifierGroupIds: [SIN, SIZE] }), { events: [{ type: 'DishAdded' }] }, '10.00 − 8.00 − 2.00 = 0.00');
  t.match(both.when({ type: 'addDish', ...cheap, price: 999, modifierGroupIds: [SIN, SIZE] }), { error: { details: { errors: [{ message: 'Tacos at 9.99 would come to less than nothing with Sin, Size (up to -10.00 a portion)' }] } } });
  const forced: ModifierGroupDetails = { name: 'Forced', minChoices: 2, maxChoices: 2, options: [{ id: 'x', name: 'X', priceDeltaCents: -100 }, { id: 'y', name: 'Y', priceDeltaCents: 400 }] };
  const withForced = given(menu, [mainsAdded, { type: 'ModifierGroupCreated', data: { groupId: SIZE, ...forced } }]);
  t.match(withForced.when({ type: 'addDish', ...cheap, price: 1, modifierGroupIds: [SIZE] }), { events: [{ type: 'DishAdded' }] }, 'both must be chosen: +3.00, never below zero');
});
