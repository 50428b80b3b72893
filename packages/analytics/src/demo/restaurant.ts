/** The demo restaurant: a Mexico City taquería with a bar and a cold kitchen, priced in pesos (cents). */
export const STATIONS = [
  { key: 'grill', name: 'Parrilla', minutes: [7, 22] },
  { key: 'bar', name: 'Barra', minutes: [2, 7] },
  { key: 'cold', name: 'Fríos', minutes: [4, 14] },
] as const;

export const CATEGORIES = [
  { key: 'tacos', name: 'Tacos', station: 'grill' },
  { key: 'mains', name: 'Platos fuertes', station: 'grill' },
  { key: 'starters', name: 'Entradas', station: 'cold' },
  { key: 'drinks', name: 'Bebidas', station: 'bar' },
  { key: 'desserts', name: 'Postres', station: 'cold' },
] as const;

type CategoryKey = (typeof CATEGORIES)[number]['key'];

/** name, category, price in cents, popularity weight. */
export const DISHES: ReadonlyArray<[string, CategoryKey, number, number]> = [
  ['Taco al pastor', 'tacos', 3200, 14], ['Taco de suadero', 'tacos', 3000, 9], ['Taco de bistec', 'tacos', 3400, 7],
  ['Taco de carnitas', 'tacos', 3200, 6], ['Gringa', 'tacos', 6500, 5], ['Alambre', 'mains', 14500, 4],
  ['Arrachera', 'mains', 21000, 3], ['Enchiladas verdes', 'mains', 12500, 4], ['Pozole', 'mains', 13500, 3],
  ['Guacamole', 'starters', 9500, 6], ['Sopa de tortilla', 'starters', 8500, 3], ['Queso fundido', 'starters', 10500, 3],
  ['Agua de jamaica', 'drinks', 4000, 10], ['Agua de horchata', 'drinks', 4000, 8], ['Refresco', 'drinks', 3500, 7],
  ['Cerveza', 'drinks', 5500, 9], ['Margarita', 'drinks', 9500, 4], ['Café de olla', 'drinks', 3800, 4],
  ['Flan', 'desserts', 5500, 3], ['Churros', 'desserts', 6500, 3],
];

export const WAITERS = ['Marta', 'Luis', 'Ana', 'Jorge', 'Paola', 'Diego'];

export const SPACES: ReadonlyArray<[string, number]> = [['Salón', 10], ['Terraza', 6], ['Barra', 4]];

/** Orders on an ordinary Monday … Sunday (multiplied by the generator's scale). */
export const ORDERS_BY_WEEKDAY = [70, 75, 80, 90, 130, 160, 120];

export const REFUND_REASONS = ['cold food', 'wrong dish', 'long wait', 'guest complaint'];
export const VOID_REASONS = ['wrong drink', 'dish not served', 'entered twice'];
export const CANCEL_REASONS = ['split the bill differently', 'wrong table', 'guest asked again'];
