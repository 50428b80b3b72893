import { type SqlDialect, checkedField, sqlWhere } from './filter-sql.js';
import type { Filter, FindOptions, IndexSpec } from './types.js';

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
/**
 * The field's numeric sort key: its number, else jsonb null, which sorts below every number. Never
 * NULL, so a condition `numKey = constant` makes it a constant for the planner: with the text key
 * after it, an index on (numKey, text) of each field both filters by equality and keeps the order
 * of the fields that follow (see `indexColumns`).
 */
export const numKey = (field: string) => `coalesce(CASE WHEN ${typeOf(field)} = 'number' THEN ${jsonField(field)} END, 'null'::jsonb)`;
const NOT_A_NUMBER = `'null'::jsonb`;
/**
 * Whether a string could also be the text of a boolean, an object or an array (`#>>` gives their
 * JSON): only then is the field's type checked too. Elsewhere the check is left out because the
 * planner has no statistics for it and guesses it keeps 0.5 % of the rows, which made it sort a few
 * thousand matches rather than read a page in index order.
 */
const ambiguous = (value: string) => value === 'true' || value === 'false' || /^[[{]/.test(value);
/** `_id` is the row's key: the primary key column, not a path into the document. */
const isKey = (field: string) => field === '_id';

function equals(field: string, value: unknown, p: SqlParams): string {
  if (value === null) return `(${jsonField(field)} IS NULL OR ${jsonField(field)} = 'null'::jsonb)`;
  if (value instanceof RegExp) return regex(field, value.source, value.flags, p);
  if (typeof value === 'string') {
    if (isKey(field)) return `(id = ${p.add(value)}::text)`;
    return `(${numKey(field)} = ${NOT_A_NUMBER} AND ${textField(field)} = ${p.add(value)}::text${ambiguous(value) ? ` AND ${typeOf(field)} = 'string'` : ''})`;
  }
  if (typeof value === 'number') {
    // An integer's text is its JSON (JSON.stringify wrote it): the text key is then a constant too.
    const text = Number.isSafeInteger(value) ? ` AND ${textField(field)} = ${p.add(String(value))}::text` : '';
    return `(${numKey(field)} = ${p.add(JSON.stringify(value))}::jsonb${text})`;
  }
  if (typeof value === 'boolean') {
    return `(${numKey(field)} = ${NOT_A_NUMBER} AND ${textField(field)} = ${p.add(String(value))}::text AND ${jsonField(field)} = ${p.add(JSON.stringify(value))}::jsonb)`;
  }
  return `(${jsonField(field)} = ${p.add(JSON.stringify(value))}::jsonb)`;
}

function compare(field: string, op: string, value: unknown, p: SqlParams): string {
  const sql = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
  if (typeof value === 'string') return `(${typeOf(field)} = 'string' AND ${numKey(field)} = ${NOT_A_NUMBER} AND ${textField(field)} ${sql} ${p.add(value)}::text)`;
  if (typeof value === 'number') {
    // Non-numbers' key (jsonb null) is below every number: an upper bound alone would take them in,
    // and the lower one is all the type check needs.
    return `(${numKey(field)} > ${NOT_A_NUMBER} AND ${numKey(field)} ${sql} ${p.add(JSON.stringify(value))}::jsonb)`;
  }
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
  if (strings.length && isKey(field)) parts.push(`id = ANY(${p.add(strings)}::text[])`);
  else if (strings.length) parts.push(`(${numKey(field)} = ${NOT_A_NUMBER} AND ${typeOf(field)} = 'string' AND ${textField(field)} = ANY(${p.add(strings)}::text[]))`);
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

/**
 * One field's sort keys: numbers numerically (jsonb's order) before or after everything else, then
 * strings by code point; a missing field sorts first ascending, as in MongoDB. `_id` is the key column.
 */
function sortKeys(field: string, dir: 1 | -1): string[] {
  if (isKey(field)) return [`id${dir === -1 ? ' DESC' : ''}`];
  return dir === -1 ? [`${numKey(field)} DESC`, `${textField(field)} DESC NULLS LAST`] : [`${numKey(field)}`, `${textField(field)} NULLS FIRST`];
}

/** The same keys as ORDER BY: every query ends with the row key, so pages are stable. */
export function orderBy(sort: FindOptions['sort']): string {
  const keys = Object.entries(sort ?? {}).flatMap(([field, dir]) => sortKeys(field, dir));
  return `ORDER BY ${[...keys, 'id'].join(', ')}`;
}

/**
 * An index's columns for a declared spec: each field's sort keys in the spec's direction, then the
 * row key. A query with equality on the leading fields (each made a constant, see `equals`) reads
 * the rest in ORDER BY's order, so a page stops after its rows instead of sorting every match.
 */
export function indexColumns(spec: IndexSpec): string {
  const fields = Object.entries(spec);
  const keys = fields.flatMap(([field, dir]) => sortKeys(field, dir));
  return (isKey(fields.at(-1)?.[0] ?? '') ? keys : [...keys, 'id']).join(', ');
}
