import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { POS_BUILD } from './built-page.js';

/**
 * The guest page (issue 63) at a bill's short link, /g/{token}: the POS build's guest.html, its
 * scripts under /g/assets/. It holds nothing: the bill comes from /guest/{token} once opened.
 */
export default async function guestPage(fastify: FastifyInstance) {
  if (!existsSync(`${POS_BUILD}guest.html`)) return;
  await fastify.register(fastifyStatic, { root: `${POS_BUILD}assets`, prefix: '/g/assets/', index: false, immutable: true, maxAge: '365d' });
  fastify.get('/g/:token', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').sendFile('guest.html', POS_BUILD, { cacheControl: false }));
}
