import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { DecodeError } from '@comanda/lightning';
import { LnurlError } from '../lnurl/client.js';
import { registerLnurlRoutes } from '../lnurl/service.js';
import type { SimNode } from '../node.js';
import { omitNulls, paymentReceivedEvent, type IncomingPayment } from '../records.js';
import { UNAUTHORIZED, basicAccess, protocolPassword } from './auth.js';
import type { ApiResult, Endpoint } from './endpoint.js';
import { infoEndpoints } from './endpoints-info.js';
import { onchainEndpoints } from './endpoints-onchain.js';
import { payEndpoints } from './endpoints-pay.js';
import { paymentEndpoints } from './endpoints-payments.js';
import { receiveEndpoints } from './endpoints-receive.js';
import { parseMultipartFields } from './multipart.js';
import { ParamError, Params } from './params.js';

export const ENDPOINTS: readonly Endpoint[] = [...infoEndpoints, ...receiveEndpoints, ...payEndpoints, ...onchainEndpoints, ...paymentEndpoints];

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const WRONG_METHOD = 'Invalid http method (use the correct GET/POST)';
const UNKNOWN_ENDPOINT = 'Unknown endpoint (check api doc)';

function sendText(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=UTF-8').send(body);
}

function send(reply: FastifyReply, result: ApiResult): FastifyReply {
  if ('text' in result) return sendText(reply, result.status ?? 200, result.text);
  return reply.code(result.status ?? 200).type('application/json; charset=UTF-8').send(JSON.stringify(result.json));
}

/** One node's HTTP server: the node API behind Basic auth, its websocket, and its public LNURL routes. */
export async function buildNodeServer(node: SimNode, log: FastifyBaseLogger): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: log, exposeHeadRoutes: false, logController: new LogController({ disableRequestLogging: true }) });
  // Only form bodies carry parameters; any other body reads as no parameters, as in the real node.
  app.removeAllContentTypeParsers();
  await app.register(formbody);
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    done(null, parseMultipartFields(body as Buffer, request.headers['content-type'] ?? '') ?? {});
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, {}));

  app.setNotFoundHandler((_request, reply) => sendText(reply, 404, UNKNOWN_ENDPOINT));
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof ParamError || error instanceof LnurlError || error instanceof DecodeError) return sendText(reply, 400, error.message);
    if (error.statusCode !== undefined && error.statusCode < 500) return sendText(reply, error.statusCode, error.message);
    request.log.error({ err: error }, 'request failed');
    return sendText(reply, 500, error.message);
  });

  for (const endpoint of ENDPOINTS) {
    app.route({
      method: [...ALL_METHODS],
      url: endpoint.path,
      handler: async (request, reply) => {
        if (!endpoint.methods.includes(request.method as 'GET' | 'POST')) return sendText(reply, 405, WRONG_METHOD);
        const access = basicAccess(node, request.headers.authorization);
        if (access === 'none' || (access === 'limited' && endpoint.fullAccess)) return sendText(reply, 401, UNAUTHORIZED);
        const params = new Params(collectParams(request, endpoint));
        return send(reply, await endpoint.handle({ node, params, path: request.params as Record<string, string>, log: request.log }));
      },
    });
  }

  await registerWebsocket(app, node);
  registerLnurlRoutes(app, node);
  return app;
}

function collectParams(request: FastifyRequest, endpoint: Endpoint): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const fields = request.method === 'GET' ? query : endpoint.queryToo ? { ...query, ...body } : body;
  return { ...fields, ...(request.params as Record<string, unknown>) };
}

async function registerWebsocket(app: FastifyInstance, node: SimNode): Promise<void> {
  await app.register(websocket, {
    options: {
      // Echo the password back as the accepted subprotocol, as clients passing it there expect.
      handleProtocols: (protocols) => protocolPassword(node, protocols) ?? false,
    },
  });
  app.route({
    method: 'GET',
    url: '/websocket',
    preValidation: async (request, reply) => {
      const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',');
      if (basicAccess(node, request.headers.authorization) === 'none' && protocolPassword(node, offered) === undefined) {
        await sendText(reply, 401, UNAUTHORIZED);
      }
    },
    handler: (_request, reply) => sendText(reply, 400, 'websocket upgrade required'),
    wsHandler: (socket: WebSocket) => {
      // No replay: a subscriber sees the payments received while it is connected.
      const listener = (payment: IncomingPayment) => socket.send(JSON.stringify(omitNulls(paymentReceivedEvent(payment))));
      node.events.on('payment_received', listener);
      socket.on('close', () => node.events.off('payment_received', listener));
      socket.on('error', () => node.events.off('payment_received', listener));
    },
  });
  app.route({
    method: ALL_METHODS.filter((m) => m !== 'GET'),
    url: '/websocket',
    handler: (_request, reply) => sendText(reply, 405, WRONG_METHOD),
  });
}
