import { exportHistory } from '../export.js';
import type { ListQuery } from '../lists.js';
import { incomingJson, outgoingJson } from '../records.js';
import type { Params } from './params.js';
import { NOT_FOUND, json, text, type Endpoint } from './endpoint.js';

const DEFAULT_LIMIT = 20;

function listQuery(params: Params, now: number): ListQuery {
  return {
    from: params.optionalAtLeast('from', 0) ?? 0,
    to: params.optionalAtLeast('to', 0) ?? now,
    limit: params.optionalAtLeast('limit', 0) ?? DEFAULT_LIMIT,
    offset: params.optionalAtLeast('offset', 0) ?? 0,
    all: params.flag('all'),
  };
}

export const paymentEndpoints: Endpoint[] = [
  {
    path: '/payments/incoming',
    methods: ['GET'],
    handle: ({ node, params }) => {
      const now = node.ctx.clock.now();
      const list = node.listIncoming({ ...listQuery(params, now), externalId: params.optional('externalId') });
      return json(list.map((p) => incomingJson(p, now)));
    },
  },
  {
    path: '/payments/incoming/:paymentHash',
    methods: ['GET'],
    handle: ({ node, params }) => {
      const payment = node.incomingByHash(params.hex32('paymentHash'));
      return payment ? json(incomingJson(payment, node.ctx.clock.now())) : NOT_FOUND;
    },
  },
  {
    path: '/payments/outgoing',
    methods: ['GET'],
    handle: ({ node, params }) => json(node.listOutgoing(listQuery(params, node.ctx.clock.now())).map(outgoingJson)),
  },
  {
    path: '/payments/outgoing/:paymentId',
    methods: ['GET'],
    handle: ({ node, params }) => {
      const payment = node.outgoingById(params.uuid('paymentId'));
      return payment ? json(outgoingJson(payment)) : NOT_FOUND;
    },
  },
  {
    path: '/payments/outgoingbyhash/:paymentHash',
    methods: ['GET'],
    handle: ({ node, params }) => {
      const payment = node.outgoingByHash(params.hex32('paymentHash'));
      return payment ? json(outgoingJson(payment)) : NOT_FOUND;
    },
  },
  {
    path: '/export',
    methods: ['POST'],
    fullAccess: true,
    queryToo: true,
    handle: async ({ node, params }) => {
      const now = node.ctx.clock.now();
      const path = await exportHistory(node, params.optionalAtLeast('from', 0) ?? 0, params.optionalAtLeast('to', 0) ?? now);
      return text(`payment history has been exported to ${path}`);
    },
  },
];
