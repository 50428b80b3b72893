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

/** Bounds every number a request may carry: a value past them is a 400 naming its field, never a store's error. */
export const MAX_OFFSET = 2_147_483_647;
/** The last instant a JavaScript Date can hold, in ms since the epoch. */
export const MAX_TIMESTAMP_MS = 8_640_000_000_000_000;
/** The largest amount exact to the cent in a double (2^53 cents). */
export const MAX_EXACT_TOTAL = 90_071_992_547_409.91;
export const Offset = () => Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'skip this many first (default 0)' });

/**
 * An amount of money whose sign and cents are checked by the rule that takes it (with that rule's own
 * message); the schema only bounds it, so absurd values (1e308) are refused before any arithmetic.
 */
export const Amount = (description?: string) => Type.Number({ minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT, ...(description ? { description } : {}) });

const Limit = (defaultLimit: number | null, maximum = 1000) => Type.Integer({
  minimum: 1, maximum, ...(defaultLimit === null ? {} : { default: defaultLimit }),
  description: defaultLimit === null ? 'at most this many (default: all of them)' : `at most this many (default ${defaultLimit})`,
});
const paginationFields = (defaultLimit: number | null, maximum?: number) => ({
  limit: Type.Optional(Limit(defaultLimit, maximum)),
  offset: Type.Optional(Offset()),
  all: Type.Optional(Type.Boolean({ default: false, description: 'true returns every record, without pagination' })),
});

/** The seed's pagination: limit (default 20), offset (default 0), all=true for everything. */
export const Pagination = Type.Object(paginationFields(20));

/**
 * The same parameters on a list the seed documents without pagination (dishes, tables, spaces…): it
 * answers everything unless the client asks for a page, so a client that never heard of pages sees
 * what it always saw.
 */
export const OptionalPagination = Type.Object(paginationFields(null));

/** How a list with OptionalPagination pages, for its OpenAPI description. */
export const PAGED_BY_CHOICE = 'Every record unless `limit` or `offset` asks for a page; X-Total-Count carries the total. An empty page answers 204.';

/** The pagination fields, to spread beside a list's own filters (a kitchen list keeps its own limit). */
export const pageFields = (defaultLimit: number | null, maximum?: number) => paginationFields(defaultLimit, maximum);

export type PageQuery = { limit?: number; offset?: number; all?: boolean };

/** A page as the read store takes it; `defaultLimit` null: everything from the offset on. */
export const page = (q: PageQuery, defaultLimit: number | null = 20): { skip?: number; limit?: number } => {
  if (q.all) return {};
  const limit = q.limit ?? defaultLimit;
  return limit === null ? { skip: q.offset ?? 0 } : { skip: q.offset ?? 0, limit };
};

/** A page of an array already in memory (the lines of an order, the stations with their default). */
export const pageOf = <T>(items: readonly T[], q: PageQuery, defaultLimit: number | null = 20): T[] => {
  const { skip = 0, limit } = page(q, defaultLimit);
  return items.slice(skip, limit === undefined ? undefined : skip + limit);
};

/**
 * A price in the base currency: a JSON number (never a string or a boolean), positive, at most two
 * decimals (checked exactly, after the schema) and at most MAX_AMOUNT (9,999,999.99).
 */
export const Price = (description: string, options: { positiveInSchema?: boolean } = {}) =>
  Type.Number({
    // Order lines check the sign with the other per-line rules, so all of a request's errors come together.
    ...(options.positiveInSchema === false ? { minimum: -MAX_AMOUNT } : { exclusiveMinimum: 0 }),
    maximum: MAX_AMOUNT,
    description: `${description}. Positive, at most two decimals, at most ${MAX_AMOUNT}`,
  });

/** Response headers the OpenAPI document names beside an answer. */
export const Headers = {
  etag: { etag: Type.String({ description: 'The version as an ETag ("3"): send it back as If-Match to write over exactly this version' }) },
  location: { location: Type.String({ description: 'Path of the created resource' }) },
  setCookie: { 'set-cookie': Type.String({ description: 'The HttpOnly, SameSite=Strict, Path=/ session cookies (set, or cleared with an expired date)' }) },
  retryAfter: { 'retry-after': Type.Integer({ description: 'Seconds to wait before trying again' }) },
  totalCount: { 'x-total-count': Type.Integer({ description: 'How many records the list holds in all (every page together), for paging' }) },
};

/** An answer schema documenting the headers sent with it. */
export const withHeaders = <T extends object>(schema: T, ...headers: Array<Record<string, unknown>>): T =>
  Object.assign(Object.create(Object.getPrototypeOf(schema) as object) as T, schema, { headers: Object.assign({}, ...headers) });
