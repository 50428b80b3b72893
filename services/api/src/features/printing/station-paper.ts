import { notFound } from '@comanda/domain';
import { PRINTERS, PRINT_JOBS, type PrintJobView, type PrinterView, STATIONS, type StationView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, MAX_TIMESTAMP_MS, commonErrors } from '../../http/schemas.js';

const Time = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS, description });
/** A screen that has never dismissed the notice is told about the last service's paper, not the restaurant's whole history. */
const AWAY_WINDOW_MS = 12 * 3600_000;

const StationPaper = Type.Object({
  station_id: Type.String({ format: 'uuid' }),
  printer: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()], { description: 'The printer that prints this station\'s tickets, if any' }),
  waiting: Type.Array(Type.Object({
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    age_seconds: Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS }),
    attempts: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    last_error: Type.Union([Type.String(), Type.Null()]),
  }), { description: 'The station\'s tickets waiting for its printer, oldest first' }),
  printed_while_away: Type.Union([Type.Object({
    count: Type.Integer({ minimum: 1, maximum: 1000 }),
    first_at: Time('When the first of them was fired (ms since the epoch)'),
    last_at: Time('When the last of them was fired: the mark to send as `since` once dismissed'),
  }), Type.Null()], { description: 'Tickets the station\'s printer printed because no screen was there (the fallback), fired after `since`; null: none' }),
});
const Query = Type.Object({
  since: Type.Optional(Time('Count what the fallback printed after this (ms since the epoch): the screen sends the last one it showed; absent: the last 12 hours')),
});

/**
 * A station's paper, for its kitchen screen (issue 61): what waits for its printer (age, tries, the
 * printer's error) and what the fallback printed while no screen was there. Only this station's
 * kitchen tickets: the kitchen reads no bill, receipt or other station's paper.
 */
export default async function stationPaperRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore } = app.deps;
  const jobs = readStore.collection<PrintJobView>(PRINT_JOBS);
  const printers = readStore.collection<PrinterView>(PRINTERS);
  const stations = readStore.collection<StationView>(STATIONS);

  app.get('/stations/:id/paper', {
    config: { permission: 'kitchen:act' },
    schema: {
      tags: ['printing'], summary: 'A station\'s print queue, and what its printer printed while its screen was away',
      params: IdParams, querystring: Query, response: { 200: StationPaper, ...commonErrors },
    },
  }, async (request) => {
    const stationId = request.params.id;
    if (!(await stations.get(stationId))) throw notFound();
    const now = Date.now();
    const [printer] = await printers.find({ station_id: stationId });
    const waiting = await jobs.find({ station_id: stationId, status: 'queued' }, { sort: { seq: 1 }, limit: 100 });
    const since = request.query.since ?? now - AWAY_WINDOW_MS;
    const away = await jobs.find({ station_id: stationId, fallback: true, status: 'printed', queued_at: { $gt: since } }, { sort: { seq: 1 }, limit: 1000 });
    return {
      station_id: stationId,
      printer: printer ? { id: printer.id, name: printer.name } : null,
      waiting: waiting.map((j) => ({ id: j.id, title: j.title, age_seconds: Math.max(0, Math.floor((now - j.queued_at) / 1000)), attempts: j.attempts, last_error: j.last_error })),
      printed_while_away: away.length === 0 ? null : {
        count: away.length,
        first_at: Math.min(...away.map((j) => j.queued_at)),
        last_at: Math.max(...away.map((j) => j.queued_at)),
      },
    };
  });
}
