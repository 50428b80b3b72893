import type { FastifyInstance } from 'fastify';
import availabilityRoutes from './availability.js';
import categoryRoutes from './categories.js';
import dishRoutes from './dishes.js';
import dishArchiveRoutes from './dish-archive.js';
import dishStockRoutes from './dish-stock.js';
import modifierGroupRoutes from './modifier-groups.js';
import taxRateRoutes from './tax-rates.js';

/** The menu: categories, dishes with their modifiers, allergens, sold-out state and archive, tax rates, hours and price levels. */
export default async function menu(app: FastifyInstance) {
  await categoryRoutes(app);
  await dishRoutes(app);
  await dishStockRoutes(app);
  await dishArchiveRoutes(app);
  await modifierGroupRoutes(app);
  await taxRateRoutes(app);
  await availabilityRoutes(app);
}
