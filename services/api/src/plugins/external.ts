import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Message, ValidationFailed } from '../http/schemas.js';

const description = `Back end of the Comanda restaurant point of sale.

Conventions: JSON bodies; ids are UUID v4; money is a decimal number with at most two decimals
(stored as integer cents); timestamps are ISO 8601 UTC in order records.

Where the contract leaves a choice, this document states it: 204 answers carry no body (HTTP forbids one),
so the strings the contract lists beside a 204 are not sent. Error bodies are {message} objects, except the
bare JSON strings "Missing or malformed ID" (400) and "Resource not found" (404).

Writes are idempotent with an Idempotency-Key header (POST) and guarded by If-Match with the ETag a GET
returned (PUT, 412 when stale). A write's response is sent after the read models include it.`;

/** Every tag an operation carries, described for the document's readers (and its linters). */
const TAGS = [
  { name: 'general', description: 'The greeting and the health checks a load balancer or supervisor asks' },
  { name: 'auth', description: 'Sessions: sign in with name and PIN, refresh with rotation, sign out; cookies for browsers, bearer tokens for other clients' },
  { name: 'users', description: 'Staff and their roles (admin, manager, waiter, kitchen)' },
  { name: 'time clock', description: 'Punches with name and PIN, shifts and hours worked, a manager\'s corrections' },
  { name: 'categories', description: 'Dish categories of the menu' },
  { name: 'dishes', description: 'The menu: dishes with their prices, categories, kitchen stations, modifier groups and allergens' },
  { name: 'tax rates', description: 'Tax rates of categories and dishes, and how bills show them' },
  { name: 'price levels', description: 'Prices for given hours (happy hour), in restaurant time; a dish\'s and a category\'s hours are set on them' },
  { name: 'modifier groups', description: 'Choices a dish offers (salsa, extras), each option with its price delta' },
  { name: 'spaces', description: 'Rooms and areas of the floor' },
  { name: 'sections', description: 'Groups of a space\'s tables, each served by one waiter' },
  { name: 'tables', description: 'Tables of the floor, their state and the order that holds them' },
  { name: 'orders', description: 'Orders: placing, their lifecycle, queries by user, table, state and day' },
  { name: 'order dishes', description: 'The lines of an order' },
  { name: 'kitchen', description: 'Kitchen stations, firing an order to them, tickets on the kitchen screens and their taps' },
  { name: 'printing', description: 'ESC/POS network printers: kitchen tickets and receipts on paper, the print queue' },
  { name: 'settings', description: 'The restaurant\'s settings a manager changes: name and footer, tax mode, the waiter\'s discount limit, the service charge, auto-bump' },
  { name: 'tickets', description: 'Bills: tickets issued for an order (whole or split), payments, voids, refunds, receipts' },
  { name: 'guest', description: "A bill's guest link (issue 63): the bill and its Lightning shares for the guest holding its QR, no sign-in" },
  { name: 'shifts', description: "The cashier's shift: opening float, counted cash and the Z report" },
  { name: 'currencies', description: 'Currencies and the base currency prices are in' },
  { name: 'wallet', description: "The restaurant's Lightning wallet (admins, unlocked with the wallet password) and Lightning checkout" },
  { name: 'reports', description: "The owner's reports, folded from the whole log" },
  { name: 'webhooks', description: "The Lightning node's payment notifications (signed)" },
];

/** Third-party plugins: cookies and the OpenAPI document with its UI at /swagger. */
export default fp(async function external(app: FastifyInstance) {
  await app.register(cookie);
  app.addSchema(Message);
  app.addSchema(ValidationFailed);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Comanda POS API', version: '1.0.0', description,
        contact: { name: 'The Comanda maintainers' },
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      tags: TAGS,
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'cookie', name: 'accessToken', description: 'Browsers: the HttpOnly cookie set by POST /auth/login (1 minute). On a 401, POST /auth/refresh once (the refreshToken cookie, 30 days, rotated on every use; a reused one revokes the session) and retry; a second 401 means sign in again' },
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Clients that are not browsers: the access_token of POST /auth/token (1 minute) as `Authorization: Bearer`. On a 401, POST /auth/token/refresh once with the refresh_token (30 days, one use: a reused one revokes the session) and retry' },
          walletAccessToken: { type: 'apiKey', in: 'cookie', name: 'walletAccessToken', description: 'Set by POST /wallet/auth (5 minutes), bound to the signed-in admin' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger' });
});
