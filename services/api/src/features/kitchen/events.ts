import type { BusSubscription } from '@comanda/bus';
import { positionKey } from '@comanda/read-store';
import { KITCHEN_TICKETS, type KitchenTicketView, SCREEN_REFRESH_MS, markStationScreen, ticketForScreens } from '@comanda/read-models';
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { eventStreamHead } from '../../plugins/security.js';
import type { ServerResponse } from 'node:http';
import { Type } from 'typebox';
import { settingsNow } from '../../http/settings.js';

const HEARTBEAT_MS = 15_000;
/** Bumped tickets a station's screen gets on a fresh start, for its recall list. */
const RECENTLY_BUMPED = 10;
/** A screen away so long that more tickets changed than this starts afresh (`event: reset`) instead of replaying them. */
const RESUME_MAX = 500;

type KitchenMessage = { position: string; ticket: ReturnType<typeof ticketForScreens> };

const frame = (position: string, ticket: unknown) => `event: ticket\nid: ${position}\ndata: ${JSON.stringify(ticket)}\n\n`;

/**
 * GET /kitchen/events: one station's tickets (every station's, for the expo screen, without
 * `station_id`) as Server-Sent Events, fed by the bus. Each `ticket` event carries a whole ticket (the
 * GET /kitchen/tickets shape) and, as its `id`, the log position of the change. The catch-up sends only
 * what a board shows: without `Last-Event-ID` every open ticket and, for a station, its last 10 bumped
 * (for recall); never the closed ones or older history. A screen that comes back with `Last-Event-ID`
 * (or `?last_event_id=`, for a reconnect the page makes itself after renewing its token) receives every
 * ticket changed since then (closed and bumped ones too, so it drops them), then live changes: nothing
 * is missed and nothing older overwrites newer; if more than RESUME_MAX changed, `event: reset` and the
 * fresh catch-up instead. `event: settings` first tells the page the auto-bump wait; `: caught-up`
 * marks the end of the catch-up.
 */
export default async function kitchenEventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = app.deps.readStore.collection<KitchenTicketView>(KITCHEN_TICKETS);
  const open = new Set<ServerResponse>();
  // preClose, not onClose: the server cannot finish closing while these streams stay open.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/kitchen/events', {
    config: { permission: 'kitchen:act' },
    schema: {
      tags: ['kitchen'],
      summary: "A station's kitchen tickets, live, as Server-Sent Events",
      description: 'text/event-stream. `event: settings` first (`{auto_bump_minutes}`, 0 = off), then `event: ticket` (`id` = log position, `data` = the whole ticket): every open ticket and, for a station, its last 10 bumped. Resume with the Last-Event-ID header or `last_event_id`: every ticket changed since is sent instead (closed ones too, to drop), or `event: reset` and a fresh catch-up when more than 500 changed. `: caught-up` (with `event: caught-up`) ends the catch-up; `: keep-alive` every 15 s.',
      querystring: Type.Object({
        station_id: Type.Optional(Type.String({ format: 'uuid', description: 'absent: every station (the expo screen)' })),
        last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,40}$' })),
      }),
      headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ pattern: '^[0-9]{1,40}$' })) }),
      response: {
        200: { description: 'An endless text/event-stream, ended by the client or by the server shutting down', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      },
    },
  }, async (request, reply) => {
    const q = request.query;
    const since = (request.headers['last-event-id'] as string | undefined) ?? q.last_event_id;
    const res = reply.raw;
    let subscription: BusSubscription | undefined;
    let closed = false;
    let live = false;
    let sentUpTo = 0n;
    const buffered: KitchenMessage[] = [];
    // A station's screen says it is there, so its printer takes over only when it is gone (issue 61).
    const screenId = randomUUID();
    let marked = Promise.resolve();
    // In order: a screen closed right after it connected must not be left marked open.
    const present = (here: boolean) => {
      const stationId = q.station_id;
      if (!stationId) return;
      marked = marked.then(() => markStationScreen(app.deps.readStore, screenId, stationId, here, Date.now()))
        .catch((err: unknown) => request.log.warn({ err }, 'kitchen screen presence not recorded'));
    };
    const stop = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearInterval(presence);
      present(false);
      open.delete(res);
      void subscription?.close();
    };
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const presence = setInterval(() => present(true), SCREEN_REFRESH_MS);
    present(true);
    request.raw.on('close', stop);
    reply.hijack();
    const send = (m: KitchenMessage) => {
      const at = BigInt(m.position);
      // Already covered by the catch-up (the read model had applied it), or a redelivery.
      if (at <= sentUpTo) return;
      sentUpTo = at;
      res.write(frame(m.position, m.ticket));
    };
    // Subscribed before reading the read model: a change made meanwhile is in one or the other.
    subscription = await app.deps.bus.subscribe<KitchenMessage>(q.station_id ? `pos.kitchen.${q.station_id}.>` : 'pos.kitchen.>', (message) => {
      if (closed) return;
      if (live) send(message.payload);
      else buffered.push(message.payload);
    });
    if (closed) return void subscription.close();
    open.add(res);
    res.writeHead(200, eventStreamHead(reply));
    res.write(': connected\n\n');
    res.write(`event: settings\ndata: ${JSON.stringify({ auto_bump_minutes: (await settingsNow(app)).kitchenAutoBumpMinutes })}\n\n`);
    const station = q.station_id ? { station_id: q.station_id } : {};
    let catchUp = since === undefined ? null : await tickets.find({ ...station, _position: { $gt: positionKey(BigInt(since)) } }, { sort: { _position: 1 }, limit: RESUME_MAX + 1 });
    if (catchUp && catchUp.length > RESUME_MAX) {
      res.write('event: reset\ndata: {}\n\n');
      catchUp = null;
    } else if (catchUp) sentUpTo = BigInt(since!);
    catchUp ??= [
      ...(q.station_id ? await tickets.find({ ...station, status: 'done' }, { sort: { bumped_at: -1 }, limit: RECENTLY_BUMPED }) : []),
      ...(await tickets.find({ ...station, status: 'open' })),
    ].sort((a, b) => (a._position < b._position ? -1 : 1));
    for (const t of catchUp) {
      const position = BigInt(t._position).toString();
      res.write(frame(position, ticketForScreens(t)));
      if (BigInt(position) > sentUpTo) sentUpTo = BigInt(position);
    }
    // The comment for readers of the raw stream, the event for the page (EventSource hides comments).
    res.write(': caught-up\nevent: caught-up\ndata: {}\n\n');
    live = true;
    for (const m of buffered.splice(0)) send(m);
    res.on('close', stop);
  });
}
