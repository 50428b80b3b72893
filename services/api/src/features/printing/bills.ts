import { TICKET_STATUS, billPrinter, conflict, printJob, printJobStream } from '@comanda/domain';
import { PRINTERS, type PrinterView, SESSIONS, type SessionView } from '@comanda/read-models';
import { renderReceipt } from '@comanda/printing';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Confirmation, IdempotencyHeaders } from '../../http/resources.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { receiptData, receiptRows } from '../bills/receipt.js';
import { settingsNow } from '../../http/settings.js';
import { guestLinkKey, withGuestLink } from '../guest/guest-url.js';

const Printed = Type.Object({ ...Confirmation.properties, kind: Type.Enum(['bill', 'receipt']) });

/** A bill (before it is paid) or a receipt (after) on the till's printer: the same rows as GET /tickets/{id}/receipt. */
export default async function billPrintRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore, config } = app.deps;
  const printers = readStore.collection<PrinterView>(PRINTERS);
  const sessions = readStore.collection<SessionView>(SESSIONS);
  const guestKey = guestLinkKey(app.deps.masterKey);

  app.post('/tickets/:id/print', {
    config: { permission: 'printers:bills' },
    schema: {
      tags: ['printing'], summary: 'Print the bill, or the receipt once paid, on this tablet\'s printer or the till\'s',
      description: 'Queues the paper for the printer of the tablet asking (a printer whose `devices` names the device this session signed in from), else for the till\'s printer (GET /printers/jobs follows it): the restaurant\'s name, lines with options, discounts, service charge, tax per rate, payments, tip and change, a Lightning payment in sats, the footer; a bill still to pay ends with its guest link as a QR code and as text (COMANDA_GUEST_URL, else the address the tablet used). Every request prints once more (a reprint); a retry with the same Idempotency-Key prints nothing more. 409 when no printer is the till\'s.',
      headers: IdempotencyHeaders, params: IdParams, response: { 202: Printed, ...commonErrors, 409: Type.Ref('Message', { description: 'No printer is set as the till\'s' }) },
    },
  }, async (request, reply) => {
    const data = await receiptData(readStore, { timezone: config.timezone, ...(await settingsNow(app)) }, request.params.id);
    // The tablet is the device its session signed in from (its chosen name, else its browser's).
    const device = (await sessions.get(request.staff!.sessionId))?.device ?? null;
    const till = billPrinter(await printers.find({}), device);
    if (!till) throw conflict('No printer is the till\'s: set one in Printers');
    const kind = data.ticket.status === TICKET_STATUS.paid ? 'receipt' : 'bill';
    const jobId = newResourceId(request, 'printjob');
    // A bill still to pay carries its guest link as a QR (issue 63): the guests pay from their phones.
    const bytes = renderReceipt({ paperWidth: till.paper_width, codePage: till.code_page }, receiptRows(withGuestLink(request, config.guestUrl, guestKey, data)));
    const title = `${kind === 'receipt' ? 'Receipt' : 'Bill'}${data.tableName ? ` · ${data.tableName}` : ''}${data.ticket.order_number ? ` · #${data.ticket.order_number}` : ''}`;
    const result = await app.deps.commands.handle(printJob, printJobStream(jobId), {
      type: 'queuePrintJob', jobId, printerId: till.id, kind, title, data: Buffer.from(bytes).toString('base64'), queuedAt: Date.now(),
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return reply.code(202).header('location', '/printers/jobs').send({ id: jobId, kind, message: `${kind === 'receipt' ? 'Receipt' : 'Bill'} queued for ${till.name}` });
  });
}
