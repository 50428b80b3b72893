import { type SqlDialect, checkedField, sqlWhere } from './filter-sql.js';
import type { Filter, FindOptions } from './types.js';

/**
 * MongoDB's query language, the part the read models use (the same subset as `postgres-filter.ts`:
 * field equality, $eq $ne $in $nin $gt $gte $lt $lte $exists $regex/$options, $and $or $nor), as SQL
 * over a `doc` column of JSON text in SQLite. A field is read with `json_extract(doc, '$.f')`, the very
 * expression the collection's indexes are built on, so SQLite can use them. Strings compare with the
 * BINARY collation (UTF-8 bytes: code point order, as MongoDB and the memory store), numbers
 * numerically; a condition on a string or number also checks the JSON type, so `true` never equals 1
 * and a string never equals a number. Anything outside the subset throws rather than match differently.
 */
const jsonPath = (field: string) => `'$.${checkedField(field)}'`;

/** The field's SQL value (NULL when missing or JSON null): what indexes are built on. */
export const fieldValue = (field: string) => `json_extract(doc, ${jsonPath(field)})`;
/** The field's JSON type: NULL when missing, 'null', 'true', 'false', 'integer', 'real', 'text', 'array', 'object'. */
const fieldType = (field: string) => `json_type(doc, ${jsonPath(field)})`;
const isString = (field: string) => `${fieldType(field)} = 'text'`;
const isNumber = (field: string) => `${fieldType(field)} IN ('integer', 'real')`;

function equals(field: string, value: unknown, p: unknown[]): string {
  // json_extract gives NULL for a missing field and for JSON null alike: MongoDB's `{f: null}`.
  if (value === null) return `(${fieldValue(field)} IS NULL)`;
  if (value instanceof RegExp) return regex(field, value.source, value.flags, p);
  if (typeof value === 'string') return (p.push(value), `(${fieldValue(field)} = ? AND ${isString(field)})`);
  if (typeof value === 'number') return (p.push(value), `(${fieldValue(field)} = ? AND ${isNumber(field)})`);
  if (typeof value === 'boolean') return `(${fieldType(field)} = '${value}')`;
  // Objects and arrays: their JSON text, as json_extract gives it back (minified, keys as written).
  p.push(JSON.stringify(value));
  return `(${fieldType(field)} IN ('object', 'array') AND ${fieldValue(field)} = json(?))`;
}

function compare(field: string, op: string, value: unknown, p: unknown[]): string {
  const sql = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
  if (typeof value === 'string') return (p.push(value), `(${isString(field)} AND ${fieldValue(field)} ${sql} ?)`);
  if (typeof value === 'number') return (p.push(value), `(${isNumber(field)} AND ${fieldValue(field)} ${sql} ?)`);
  throw new Error(`Unsupported ${op} value in a read-model query (strings and numbers only)`);
}

function regex(field: string, source: string, flags: string, p: unknown[]): string {
  if (/[^i]/.test(flags)) throw new Error(`Unsupported regular expression flags in a read-model query: ${flags}`);
  p.push(source, flags);
  // comanda_regexp is JavaScript's RegExp, registered on the connection (sqlite-schema.ts).
  return `(${isString(field)} AND comanda_regexp(?, ?, ${fieldValue(field)}))`;
}

function within(field: string, values: unknown[], p: unknown[]): string {
  const parts: string[] = [];
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const others = values.filter((v) => typeof v !== 'string' && typeof v !== 'number');
  if (strings.length) {
    p.push(...strings);
    parts.push(`(${isString(field)} AND ${fieldValue(field)} IN (${strings.map(() => '?').join(', ')}))`);
  }
  if (numbers.length) {
    p.push(...numbers);
    parts.push(`(${isNumber(field)} AND ${fieldValue(field)} IN (${numbers.map(() => '?').join(', ')}))`);
  }
  for (const v of others) parts.push(equals(field, v, p));
  return parts.length ? `(${parts.join(' OR ')})` : '0';
}

const sqlite: SqlDialect<unknown[]> = {
  false: '0', true: '1', equals, within, compare, regex,
  exists: (field, present) => `(${fieldType(field)} IS ${present ? 'NOT ' : ''}NULL)`,
};

/** The WHERE clause for `filter`; its parameters are pushed onto `p` in order. */
export const sqliteWhere = (filter: Filter, p: unknown[]): string => sqlWhere(sqlite, filter, p);

/**
 * SQLite orders values by type first (NULL, then numbers numerically, then text by code point): a
 * missing field sorts first ascending and last descending, as in MongoDB. The id breaks ties.
 */
export function sqliteOrderBy(sort: FindOptions['sort']): string {
  const keys = Object.entries(sort ?? {}).map(([field, dir]) => `${fieldValue(field)} ${dir === -1 ? 'DESC' : 'ASC'}`);
  return `ORDER BY ${[...keys, 'id'].join(', ')}`;
}
