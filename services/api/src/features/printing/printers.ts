import { CODE_PAGES, PAPER_WIDTHS, PRINTERS_STREAM, PRINTER_DEVICES_MAX, STATION_MODES, notFound, printJob, printJobStream, printers } from '@comanda/domain';
import { PRINTERS, type PrinterView, STATIONS, type StationView } from '@comanda/read-models';
import { renderTestPage } from '@comanda/printing';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { Confirmation, Conflict, EmptyList, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale, sendList } from '../../http/resources.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { unchanged, versionTag } from '../../plugins/revalidation.js';

const Setup = {
  host: Type.String({ minLength: 1, maxLength: 253, description: 'Host name or IP address of the printer on the restaurant\'s network' }),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'Raw TCP port; 9100 on ESC/POS network printers' }),
  paper_width: Type.Enum([...PAPER_WIDTHS], { description: 'Paper roll width in mm' }),
  code_page: Type.Enum([...CODE_PAGES], { description: 'Character table set on the printer: cp858 or windows1252 have the euro sign' }),
  station_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The kitchen station whose tickets it prints, or null' }),
  station_mode: Type.Enum([...STATION_MODES], { description: 'screen: prints only when the station\'s screen is gone; paper: prints every ticket; both: prints and shows' }),
  till: Type.Boolean({ description: 'The till\'s receipt printer: bills and receipts' }),
  devices: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: PRINTER_DEVICES_MAX, description: 'The tablets (device names as they sign in, "Tablet 3") whose bills and receipts print here instead of on the till\'s printer',
  }),
};
const Printer = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), ...Setup });
const Body = Type.Object({
  name: PlaceName, ...Setup,
  station_mode: Type.Optional(Setup.station_mode), station_id: Type.Optional(Setup.station_id), till: Type.Optional(Setup.till), devices: Type.Optional(Setup.devices),
});
const errors = { ...commonErrors, 409: Conflict('Another printer has this name (ignoring case), already prints this station or one of these tablets, or is already the till\'s'), 412: Stale };
const tags = ['printing'];
const view = (p: PrinterView) => ({
  id: p.id, name: p.name, host: p.host, port: p.port, paper_width: p.paper_width, code_page: p.code_page,
  station_id: p.station_id, station_mode: p.station_mode, till: p.till, devices: p.devices ?? [],
});

/** The restaurant's ESC/POS printers (issue 61): a manager adds them, assigns them to a station or the till, and prints a test page. */
export default async function printerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const list = app.deps.readStore.collection<PrinterView>(PRINTERS);
  const stations = app.deps.readStore.collection<StationView>(STATIONS);
  const setupOf = async (body: Static<typeof Body>) => ({
    name: body.name.trim(), host: body.host, port: body.port, paperWidth: body.paper_width, codePage: body.code_page,
    stationId: body.station_id ?? null, stationMode: body.station_mode ?? 'paper', till: body.till ?? false, devices: body.devices ?? [],
    stations: (await stations.find({})).map((s) => s.id),
  });

  app.get('/printers', {
    config: { permission: 'printers:manage' },
    schema: { tags, summary: 'The printers, by name', response: { 200: Type.Array(Printer), 204: EmptyList('printers'), ...commonErrors } },
  }, async (_request, reply) => sendList(reply, (await list.find({}, { sort: { name: 1 } })).map(view)));

  app.get('/printers/:id', {
    config: { permission: 'printers:manage' },
    schema: { tags, summary: 'One printer, with its version as ETag', params: IdParams, response: { 200: Printer, ...commonErrors } },
  }, async (request, reply) => {
    const printer = await list.get(request.params.id);
    if (!printer) throw notFound();
    if (unchanged(request, reply, versionTag(printer.version))) return reply;
    return view(printer);
  });

  app.post('/printers', {
    config: { permission: 'printers:manage' },
    schema: {
      tags, summary: 'Add a printer', description: 'station_mode defaults to paper, till to false. Names are unique ignoring case; one printer per station; one till printer (409).',
      headers: IdempotencyHeaders, body: Body, response: { 201: Confirmation, ...errors },
    },
  }, async (request, reply) => {
    const printerId = newResourceId(request, 'printer');
    const result = await app.deps.commands.handle(printers, PRINTERS_STREAM, { type: 'addPrinter', printerId, ...(await setupOf(request.body)) }, writeContext(request));
    await app.readYourWrite(result.position, `/printers/${printerId}`);
    return reply.code(201).header('location', `/printers/${printerId}`).send({ id: printerId, message: 'Printer added successfully' });
  });

  app.put('/printers/:id', {
    config: { permission: 'printers:manage' },
    schema: { tags, summary: 'Change a printer: its address, paper, code page or assignment', headers: IfMatchHeaders, params: IdParams, body: Body, response: { 200: Confirmation, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(printers, PRINTERS_STREAM, { type: 'changePrinter', printerId: id, ifMatch: ifMatch(request), ...(await setupOf(request.body)) }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Printer updated successfully' };
  });

  app.delete('/printers/:id', {
    config: { permission: 'printers:manage' },
    schema: { tags, summary: 'Remove a printer', description: 'Jobs already queued for it stay in the queue until it is added again under the same id, or forever otherwise: they are shown, never dropped.', params: IdParams, response: { 200: Confirmation, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const result = await app.deps.commands.handle(printers, PRINTERS_STREAM, { type: 'removePrinter', printerId: id }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Printer removed successfully' };
  });

  app.post('/printers/:id/test', {
    config: { permission: 'printers:manage' },
    schema: {
      tags, summary: 'Queue a test page', description: 'The page names the printer, its paper and code page, and prints accented letters (and the euro sign where the code page has it). Follow it in GET /printers/jobs.',
      headers: IdempotencyHeaders, params: IdParams, response: { 202: Confirmation, ...commonErrors },
    },
  }, async (request, reply) => {
    const printer = await list.get(request.params.id);
    if (!printer) throw notFound();
    const jobId = newResourceId(request, 'printjob');
    const at = Date.now();
    const data = Buffer.from(renderTestPage({ paperWidth: printer.paper_width, codePage: printer.code_page }, printer.name, at, app.deps.config.timezone)).toString('base64');
    const result = await app.deps.commands.handle(printJob, printJobStream(jobId), {
      type: 'queuePrintJob', jobId, printerId: printer.id, kind: 'test', title: `Test page · ${printer.name}`, data, queuedAt: at,
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return reply.code(202).header('location', '/printers/jobs').send({ id: jobId, message: 'Test page queued' });
  });
}
