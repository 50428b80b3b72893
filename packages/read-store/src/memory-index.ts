import { compare as mingoCompare } from 'mingo/util';
import type { Doc, Filter, IndexSpec } from './types.js';

/**
 * A document as the memory store holds it: `seq` is its place in the collection's insertion order
 * (kept when the document is replaced, new when it is inserted again after a delete), which is the
 * order mingo meets documents in, so the order in which it leaves ties of a sort.
 */
export interface Entry<T extends Doc> {
  doc: T;
  seq: number;
}

/** mingo's order of values, a missing field sorting with null as in mingo's (and MongoDB's) sort. */
const compare = (a: unknown, b: unknown): number => mingoCompare((a ?? null) as never, (b ?? null) as never);

type Bound = { value: unknown; inclusive: boolean };
/** What a filter says about one field: an exact value, or a range (either end open). */
type Constraint = { eq: unknown } | { lower?: Bound; upper?: Bound };

const isScalar = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v)) || typeof v === 'boolean';

/**
 * The part of a filter on `field` an index can use: equality with a scalar (`x` or `{$eq: x}`), or a
 * range of numbers or strings (`$gt`, `$gte`, `$lt`, `$lte` and nothing else). Anything else (null,
 * which also matches a missing field, `$in`, `$regex`...) is left to the full filter test.
 */
function constraintOn(filter: Filter, field: string): Constraint | undefined {
  if (!Object.hasOwn(filter, field)) return undefined;
  const f = filter[field];
  if (isScalar(f)) return { eq: f };
  if (f === null || typeof f !== 'object' || Array.isArray(f) || f instanceof RegExp) return undefined;
  const ops = Object.entries(f as Record<string, unknown>);
  if (ops.length === 1 && ops[0]![0] === '$eq' && isScalar(ops[0]![1])) return { eq: ops[0]![1] };
  const range: { lower?: Bound; upper?: Bound } = {};
  for (const [op, value] of ops) {
    if (typeof value !== 'number' && typeof value !== 'string') return undefined;
    if (Number.isNaN(value)) return undefined;
    if (op === '$gt' || op === '$gte') {
      if (range.lower) return undefined;
      range.lower = { value, inclusive: op === '$gte' };
    } else if (op === '$lt' || op === '$lte') {
      if (range.upper) return undefined;
      range.upper = { value, inclusive: op === '$lte' };
    } else return undefined;
  }
  // A range between values of different types says nothing mingo would read the same way.
  if (range.lower && range.upper && typeof range.lower.value !== typeof range.upper.value) return undefined;
  return ops.length ? range : undefined;
}

/** Where a value lies against a constraint: before (-1), inside (0) or after (1), in ascending order. */
function against(value: unknown, c: Constraint): number {
  if ('eq' in c) return Math.sign(compare(value, c.eq));
  // Outside the type of the bounds: mingo's comparison operators match only values of the same type.
  const type = typeof (c.lower ?? c.upper)!.value;
  if (typeof value !== type) return Math.sign(compare(value, (c.lower ?? c.upper)!.value)) || -1;
  if (c.lower) {
    const d = compare(value, c.lower.value);
    if (d < 0 || (d === 0 && !c.lower.inclusive)) return -1;
  }
  if (c.upper) {
    const d = compare(value, c.upper.value);
    if (d > 0 || (d === 0 && !c.upper.inclusive)) return 1;
  }
  return 0;
}

/** How a query would use an index: the block of entries it reads and whether they come out sorted. */
export interface Plan<T extends Doc> {
  index: SortedIndex<T>;
  constraints: Constraint[];
  /** The entries of the block are already in the order the query's sort asks for. */
  sorted: boolean;
  score: number;
}

/**
 * Entries sorted by the fields of an `IndexSpec` (each in its direction), then by `seq`. Kept up to
 * date on every write; a document whose indexed field holds an array or object (which MongoDB would
 * index once per element) turns the index off for good rather than answer differently from mingo.
 */
export class SortedIndex<T extends Doc> {
  readonly fields: string[];
  readonly directions: Array<1 | -1>;
  private readonly entries: Array<Entry<T>> = [];
  usable = true;

  constructor(spec: IndexSpec) {
    this.fields = Object.keys(spec);
    this.directions = Object.values(spec);
    if (this.fields.some((f) => f.includes('.') || f.startsWith('$'))) this.usable = false;
  }

  private order(a: Entry<T>, b: Entry<T>): number {
    for (let i = 0; i < this.fields.length; i++) {
      const d = compare(a.doc[this.fields[i]!], b.doc[this.fields[i]!]);
      if (d !== 0) return d * this.directions[i]!;
    }
    return a.seq - b.seq;
  }

  /** First position whose entry is not before `probe` (-1 before, 0 or 1 not). */
  private lowerBound(probe: (e: Entry<T>) => number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (probe(this.entries[mid]!) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(entry: Entry<T>): void {
    if (!this.usable) return;
    for (const f of this.fields) {
      const v = entry.doc[f];
      if (v !== null && typeof v === 'object') {
        this.usable = false;
        this.entries.length = 0;
        return;
      }
    }
    this.entries.splice(this.lowerBound((e) => this.order(e, entry)), 0, entry);
  }

  remove(entry: Entry<T>): void {
    if (!this.usable) return;
    const at = this.lowerBound((e) => this.order(e, entry));
    if (this.entries[at] === entry) this.entries.splice(at, 1);
  }

  /**
   * A document written again: kept in its place when none of the indexed fields changed (an order
   * whose lines change keeps its status, waiter and table). Removing and re-inserting moves every
   * later entry of the array, which made a rebuild of 1M events quadratic (over 14 minutes).
   */
  replace(old: Entry<T>, entry: Entry<T>): void {
    if (!this.usable) return;
    // The entry keeps the old one's seq (the same document), so equal fields mean the same place.
    if (this.fields.every((f) => compare(old.doc[f], entry.doc[f]) === 0)) {
      const at = this.lowerBound((e) => this.order(e, old));
      if (this.entries[at] === old) {
        this.entries[at] = entry;
        return;
      }
    }
    this.remove(old);
    this.add(entry);
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** How well this index serves a query; undefined when it does not help at all. */
  plan(filter: Filter, sort: Record<string, 1 | -1> | undefined): Plan<T> | undefined {
    if (!this.usable) return undefined;
    const constraints: Constraint[] = [];
    for (const field of this.fields) {
      const c = constraintOn(filter, field);
      if (!c) break;
      constraints.push(c);
      if (!('eq' in c)) break;
    }
    // The block comes out in the sort's order when the sort names exactly the fields after the
    // equalities, in the index's directions (fields fixed by an equality may appear anywhere).
    let sorted = !sort;
    if (sort) {
      const eqFields = new Set(this.fields.filter((_, i) => i < constraints.length && 'eq' in constraints[i]!));
      const rest = Object.entries(sort).filter(([k]) => !eqFields.has(k));
      const start = eqFields.size;
      sorted = rest.length === this.fields.length - start && rest.every(([k, d], i) => this.fields[start + i] === k && this.directions[start + i] === d);
    }
    // Without a sort, mingo answers in insertion order, which the index does not keep.
    if (!sort) sorted = false;
    const score = constraints.reduce((s, c) => s + ('eq' in c ? 4 : 2), 0) + (sorted ? 1 : 0);
    return score > 0 ? { index: this, constraints, sorted, score } : undefined;
  }

  /** The entries inside the plan's block, in index order. */
  *block(constraints: Constraint[]): Generator<Entry<T>> {
    const position = (e: Entry<T>) => {
      for (let i = 0; i < constraints.length; i++) {
        const d = against(e.doc[this.fields[i]!], constraints[i]!) * this.directions[i]!;
        if (d !== 0) return d;
      }
      return 0;
    };
    for (let i = this.lowerBound(position); i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (position(e) !== 0) return;
      yield e;
    }
  }
}

/**
 * mingo's order for a sort specification, ties left in insertion order (mingo's sort is stable over
 * documents met in insertion order).
 */
export function sortOrder<T extends Doc>(sort: Record<string, 1 | -1> | undefined): (a: Entry<T>, b: Entry<T>) => number {
  const keys = Object.entries(sort ?? {});
  return (a, b) => {
    for (const [k, d] of keys) {
      const c = compare(a.doc[k], b.doc[k]);
      if (c !== 0) return c * d;
    }
    return a.seq - b.seq;
  };
}
