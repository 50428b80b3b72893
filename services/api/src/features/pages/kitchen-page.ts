import type { FastifyInstance } from 'fastify';
import { builtPage } from './built-page.js';

/** The kitchen display: `kitchen.html` of the POS's build (Preact, the typed client), public like /pos. */
export default async function kitchenPage(fastify: FastifyInstance) {
  await builtPage(fastify, '/kitchen', 'kitchen.html', 'The kitchen display is');
}
