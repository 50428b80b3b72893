import { type SqlDialect, checkedField, sqlWhere } from './filter-sql.js';
import type { Filter, FindOptions } from './types.js';

/**
 * MongoDB's query language, the part the read models use, as SQL over a `doc jsonb` column: field
 * equality, $eq $ne $in $nin $gt $gte $lt $lte $exists $regex/$options, $and $or $nor. Strings are
 * compared as text in the C collation (code point order, as MongoDB and the memory store do,
 * whatever the database's own collation); other values as jsonb (numbers numerically). An operator
 * outside this subset throws rather than silently match differently from the memory store.
 */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const path = (field: string) => `'{${checkedField(field).split('.').join(',')}}'`;

/** The field as jsonb, and as text in the C collation (the form string indexes are built on). */
export const jsonField = (field: string) => `(doc #> ${path(field)})`;
export const textField = (field: string) => `((doc #>> ${path(field)}) COLLATE "C")`;
const typeOf = (field: string) => `jsonb_typeof${jsonField(field)}`;

function equals(field: string, value: unknown, p: SqlParams): string {
  if (value === null) return `(${jsonField(field)} IS NULL OR ${jsonField(field)} = 'null'::jsonb)`;
  if (value instanceof RegExp) return regex(field, value.source, value.flags, p);
  if (typeof value === 'string') return `(${textField(field)} = ${p.add(value)}::text AND ${typeOf(field)} = 'string')`;
  return `(${jsonField(field)} = ${p.add(JSON.stringify(value))}::jsonb)`;
}

function compare(field: string, op: string, value: unknown, p: SqlParams): string {
  const sql = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
  if (typeof value === 'string') return `(${typeOf(field)} = 'string' AND ${textField(field)} ${sql} ${p.add(value)}::text)`;
  if (typeof value === 'number') return `(${typeOf(field)} = 'number' AND ${jsonField(field)} ${sql} ${p.add(JSON.stringify(value))}::jsonb)`;
  throw new Error(`Unsupported ${op} value in a read-model query (strings and numbers only)`);
}

function regex(field: string, source: string, flags: string, p: SqlParams): string {
  if (/[^i]/.test(flags)) throw new Error(`Unsupported regular expression flags in a read-model query: ${flags}`);
  return `(${typeOf(field)} = 'string' AND ${textField(field)} ${flags.includes('i') ? '~*' : '~'} ${p.add(source)})`;
}

function within(field: string, values: unknown[], p: SqlParams): string {
  const parts: string[] = [];
  const strings = values.filter((v): v is string => typeof v === 'string');
  const others = values.filter((v) => typeof v !== 'string' && v !== null);
  if (strings.length) parts.push(`(${typeOf(field)} = 'string' AND ${textField(field)} = ANY(${p.add(strings)}::text[]))`);
  if (others.length) parts.push(`${jsonField(field)} = ANY(${p.add(others.map((v) => JSON.stringify(v)))}::jsonb[])`);
  if (values.includes(null)) parts.push(equals(field, null, p));
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

const postgres: SqlDialect<SqlParams> = {
  false: 'false', true: 'true', equals, within, compare, regex,
  exists: (field, present) => `(${jsonField(field)} IS ${present ? 'NOT ' : ''}NULL)`,
};

/** The WHERE clause for `filter`; its parameters are added to `p` in order. */
export const where = (filter: Filter, p: SqlParams): string => sqlWhere(postgres, filter, p);

/** Numbers numerically, strings by code point; a missing field sorts first ascending, as in MongoDB. */
export function orderBy(sort: FindOptions['sort']): string {
  const keys = Object.entries(sort ?? {}).flatMap(([field, dir]) => {
    const d = dir === -1 ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
    return [`(CASE WHEN ${typeOf(field)} = 'number' THEN ${jsonField(field)} END) ${d}`, `${textField(field)} ${d}`];
  });
  return `ORDER BY ${[...keys, 'id'].join(', ')}`;
}
