import type { FastifyBaseLogger } from 'fastify';
import type { SimNode } from '../node.js';
import type { Params } from './params.js';

export type Method = 'GET' | 'POST';

/** A JSON body, or a plain-text one (the endpoints the seed marks as plain text, and text errors). */
export type ApiResult = { json: unknown; status?: number } | { text: string; status?: number };

export interface ApiRequest {
  node: SimNode;
  params: Params;
  /** Path parameters such as `:paymentHash`. */
  path: Record<string, string>;
  log: FastifyBaseLogger;
}

export interface Endpoint {
  path: string;
  methods: readonly Method[];
  /** Refused to the limited-access password. */
  fullAccess?: boolean;
  /** Also read parameters from the query string of a POST (the real /export does). */
  queryToo?: boolean;
  handle(request: ApiRequest): ApiResult | Promise<ApiResult>;
}

export const json = (body: unknown): ApiResult => ({ json: body });
export const text = (body: string, status = 200): ApiResult => ({ text: body, status });
export const NOT_FOUND = text('Not found', 404);
