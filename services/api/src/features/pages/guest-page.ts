import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { POS_BUILD } from './built-page.js';

/**
 * The guest page (issue 63) at a bill's short link, /g/{token}: the POS build's guest.html, its
 * scripts under /g/assets/; a table's page at /t/{token} likewise. They hold nothing: the bill or the
 * menu comes from /guest/… once opened.
 */
export default async function guestPage(fastify: FastifyInstance) {
  if (!existsSync(`${POS_BUILD}guest.html`)) return;
  await fastify.register(fastifyStatic, { root: `${POS_BUILD}assets`, prefix: '/g/assets/', index: false, immutable: true, maxAge: '365d' });
  const page = (file: string) => (_request: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').sendFile(file, POS_BUILD, { cacheControl: false });
  fastify.get('/g/:token', { schema: { hide: true } }, page('guest.html'));
  // A table's QR (ordering from the table): the same build's table.html, its scripts under /t/assets/.
  if (!existsSync(`${POS_BUILD}table.html`)) return;
  await fastify.register(fastifyStatic, { root: `${POS_BUILD}assets`, prefix: '/t/assets/', index: false, immutable: true, maxAge: '365d', decorateReply: false });
  fastify.get('/t/:token', { schema: { hide: true } }, page('table.html'));
}
