import type { Filter } from './types.js';

/**
 * MongoDB's query language, the part the read models use (field equality, $eq $ne $in $nin $gt $gte
 * $lt $lte $exists $regex/$options, $and $or $nor), walked once for every SQL store. A dialect says
 * how one condition on one field is written (`sqlite-filter.ts`, `postgres-filter.ts`); anything
 * outside the subset throws here, rather than match differently from the memory store.
 */
export interface SqlDialect<P> {
  /** SQL's false, as `coalesce` takes it (a comparison with a missing field is NULL, never true). */
  readonly false: string;
  /** What an empty filter is. */
  readonly true: string;
  equals(field: string, value: unknown, p: P): string;
  /** `values` is an array; none at all matches nothing. */
  within(field: string, values: unknown[], p: P): string;
  compare(field: string, op: '$gt' | '$gte' | '$lt' | '$lte', value: unknown, p: P): string;
  regex(field: string, source: string, flags: string, p: P): string;
  exists(field: string, present: boolean): string;
}

const SAFE_FIELD = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

/** A field name as the read models write them (dotted paths of plain names): anything else throws. */
export function checkedField(field: string): string {
  if (!SAFE_FIELD.test(field)) throw new Error(`Unsupported field name in a read-model query: ${field}`);
  return field;
}

const not = <P>(d: SqlDialect<P>, sql: string) => `(NOT coalesce(${sql}, ${d.false}))`;

function within<P>(d: SqlDialect<P>, field: string, values: unknown, p: P): string {
  if (!Array.isArray(values)) throw new Error('$in and $nin take an array');
  return d.within(field, values, p);
}

function condition<P>(d: SqlDialect<P>, field: string, cond: unknown, p: P): string {
  const isOperators =
    cond !== null && typeof cond === 'object' && !Array.isArray(cond) && !(cond instanceof RegExp) &&
    Object.keys(cond).length > 0 && Object.keys(cond).every((k) => k.startsWith('$'));
  if (!isOperators) return d.equals(field, cond, p);
  const ops = cond as Record<string, unknown>;
  const parts: string[] = [];
  for (const [op, value] of Object.entries(ops)) {
    switch (op) {
      case '$eq': parts.push(d.equals(field, value, p)); break;
      case '$ne': parts.push(not(d, d.equals(field, value, p))); break;
      case '$in': parts.push(within(d, field, value, p)); break;
      case '$nin': parts.push(not(d, within(d, field, value, p))); break;
      case '$gt': case '$gte': case '$lt': case '$lte': parts.push(d.compare(field, op, value, p)); break;
      case '$exists': parts.push(d.exists(field, Boolean(value))); break;
      case '$regex': {
        const source = value instanceof RegExp ? value.source : String(value);
        const flags = `${value instanceof RegExp ? value.flags : ''}${typeof ops.$options === 'string' ? ops.$options : ''}`;
        parts.push(d.regex(field, source, [...new Set(flags)].join(''), p));
        break;
      }
      case '$options': if (!('$regex' in ops)) throw new Error('$options needs $regex'); break;
      default: throw new Error(`Unsupported operator in a read-model query: ${op}`);
    }
  }
  return `(${parts.join(' AND ')})`;
}

/** The WHERE clause for `filter` in dialect `d`; its parameters are added to `p` in order. */
export function sqlWhere<P>(d: SqlDialect<P>, filter: Filter, p: P): string {
  const parts: string[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(cond) || cond.length === 0) throw new Error(`${key} takes a non-empty array`);
      const subs = cond.map((f) => sqlWhere(d, f as Filter, p));
      parts.push(key === '$and' ? `(${subs.join(' AND ')})` : key === '$or' ? `(${subs.join(' OR ')})` : not(d, `(${subs.join(' OR ')})`));
    } else if (key.startsWith('$')) {
      throw new Error(`Unsupported operator in a read-model query: ${key}`);
    } else {
      parts.push(condition(d, key, cond, p));
    }
  }
  return parts.length ? parts.join(' AND ') : d.true;
}
