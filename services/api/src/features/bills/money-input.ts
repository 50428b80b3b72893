import { toCents, validationFailed, type FieldError } from '@comanda/domain';
import { Type, type TProperties } from 'typebox';

/**
 * A body that refuses fields it does not know. Fastify's AJV strips properties under
 * `additionalProperties: false`; a `not: {}` schema is never stripped, so an unknown field fails.
 */
export const Strict = <P extends TProperties>(properties: P, options: { description?: string; examples?: unknown[] } = {}) =>
  Type.Object(properties, { ...options, additionalProperties: Type.Never() });

/** Decimal amounts from a request in cents, every bad one reported at once. */
export function centsOf(fields: Array<[field: string, value: number | undefined, min: number]>): number[] {
  const errors: FieldError[] = [];
  const out = fields.map(([field, value, min]) => {
    if (value === undefined) return 0;
    const cents = toCents(value);
    if (cents === null || cents < min) {
      errors.push({ field, message: min > 0 ? 'must be a positive amount with at most two decimals' : 'must be zero or more, with at most two decimals' });
      return 0;
    }
    return cents;
  });
  if (errors.length) throw validationFailed(errors);
  return out;
}

/**
 * Fastify's AJV coerces scalars (`true` → 1, `"5"` → 5) before a handler sees them; money must arrive
 * as a JSON number, so these fields are checked before validation runs.
 */
export const jsonNumbers = (...fields: string[]) => async (request: { body: unknown }) => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const errors = fields.filter((f) => f in body && typeof (body as Record<string, unknown>)[f] !== 'number');
  if (errors.length) throw validationFailed(errors.map((field) => ({ field, message: 'must be a JSON number' })));
};
