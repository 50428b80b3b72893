import { MAX_AMOUNT } from '@comanda/domain';
import { Type } from 'typebox';

export const Message = Type.Object({ message: Type.String() }, { $id: 'Message', description: 'An error or confirmation message' });

export const ValidationFailed = Type.Object(
  {
    message: Type.Literal('Validation failed'),
    errors: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
  },
  { $id: 'ValidationFailed', description: 'Input did not pass validation; one entry per offending field' },
);

export const MalformedId = Type.Literal('Missing or malformed ID', { description: 'Bare JSON string: a path id is not a UUID' });
export const ResourceNotFound = Type.Literal('Resource not found', { description: 'Bare JSON string: no such resource' });

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'UUID of the resource' }) });

/** The error answers every authenticated resource route can give, for the OpenAPI document. */
export const commonErrors = {
  400: Type.Union([ValidationFailed, MalformedId], { description: 'Validation failed, or a malformed path id' }),
  401: Type.Ref('Message', { description: "{message:'Unauthorized'}: missing, invalid or expired access token" }),
  403: Type.Ref('Message', { description: "{message:'Unauthorized API access'}: the role lacks the permission" }),
  404: ResourceNotFound,
} as const;

/** The seed's pagination: limit (default 20), offset (default 0), all=true for everything. */
export const Pagination = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  all: Type.Optional(Type.Boolean({ default: false, description: 'true returns every record, without pagination' })),
});

export const page = (q: { limit?: number; offset?: number; all?: boolean }) =>
  q.all ? {} : { skip: q.offset ?? 0, limit: q.limit ?? 20 };

/**
 * A price in the base currency: a JSON number (never a string or a boolean), positive, at most two
 * decimals (checked exactly, after the schema) and at most MAX_AMOUNT (9,999,999.99).
 */
export const Price = (description: string, options: { positiveInSchema?: boolean } = {}) =>
  Type.Number({
    // Order lines check the sign with the other per-line rules, so all of a request's errors come together.
    ...(options.positiveInSchema === false ? {} : { exclusiveMinimum: 0 }),
    maximum: MAX_AMOUNT,
    description: `${description}. Positive, at most two decimals, at most ${MAX_AMOUNT}`,
  });

/** Response headers the OpenAPI document names beside an answer. */
export const Headers = {
  etag: { etag: Type.String({ description: 'The version as an ETag ("3"): send it back as If-Match to write over exactly this version' }) },
  location: { location: Type.String({ description: 'Path of the created resource' }) },
  setCookie: { 'set-cookie': Type.String({ description: 'The HttpOnly, SameSite=Strict, Path=/ session cookies (set, or cleared with an expired date)' }) },
  retryAfter: { 'retry-after': Type.Integer({ description: 'Seconds to wait before trying again' }) },
};

/** An answer schema documenting the headers sent with it. */
export const withHeaders = <T extends object>(schema: T, ...headers: Array<Record<string, unknown>>): T =>
  Object.assign(Object.create(Object.getPrototypeOf(schema) as object) as T, schema, { headers: Object.assign({}, ...headers) });
