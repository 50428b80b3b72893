/**
 * Inputs for the OpenAPI fuzzer: a seeded random source (the same run every time), a valid sample of
 * a JSON schema, and the ways to spoil one. Nothing here knows any route: everything is read from
 * the served document.
 */
import { mulberry32 } from '@comanda/analytics';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, unknown>;

/** A seeded random source: the same run every time. */
export function random(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!;
    },
  };
}
export type Random = ReturnType<typeof random>;

/** Replaces `$ref`s to components with the schemas they name (the document's schemas are not recursive). */
export function resolveRefs(schema: unknown, doc: { components?: { schemas?: Record<string, unknown> } }): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, doc));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    const { $ref: _ignored, ...rest } = s;
    return { ...(resolveRefs(doc.components?.schemas?.[name], doc) as Schema), ...rest };
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, resolveRefs(v, doc)]));
}

/** A value the schema accepts (as far as a sample can tell), using known ids for uuid fields. */
export function sample(schema: Schema | undefined, ids: string[], rnd: Random): Json {
  if (!schema) return null;
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return rnd.pick(schema.enum as Json[]);
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) return sample(rnd.pick(options), ids, rnd);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...(schema.allOf as Schema[]).map((s) => sample(s, ids, rnd) as object));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(props)) out[k] = sample(v, ids, rnd);
      return out;
    }
    case 'array':
      return [sample(schema.items as Schema, ids, rnd)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return 12.5;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'uuid') return rnd.pick(ids);
      if (typeof schema.pattern === 'string' && schema.pattern.includes('0-9]{4')) return '1234';
      if (typeof schema.pattern === 'string' && schema.pattern.includes('a-fA-F]{64}')) return 'ab'.repeat(32);
      return 'Fuzz';
    default:
      return null;
  }
}

/** Values of every JSON type and the odd numbers and strings that break careless code. */
export const ODD_VALUES: Json[] = [
  null, true, false, 0, -1, -0, 1e308, -1e308, 1e-7, 2 ** 53 + 1, 0.1 + 0.2, 1000000.005, 9e13, 12.345,
  '', ' ', '12', 'true', 'null', '\u0000', '\ud800', '%', '%zz', '../../etc/passwd', '<script>alert(1)</script>', "' OR 1=1 --",
  'x'.repeat(10_000), '😀'.repeat(300), [], [null], {}, { $gt: '' }, { __proto__: { polluted: true } } as Json, { constructor: { prototype: {} } },
];

/** A body nested `depth` levels deep, as text (JSON.stringify of such a value would itself overflow). */
export const deeplyNested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** One spoiled copy of a valid body: a field of the wrong type, missing, extra, huge or odd. */
export function spoil(valid: Json, rnd: Random): Json {
  if (valid === null || typeof valid !== 'object') return rnd.pick(ODD_VALUES);
  const copy = JSON.parse(JSON.stringify(valid)) as Json;
  const containers: Array<Json[] | Record<string, Json>> = [];
  const walk = (v: Json) => {
    if (v && typeof v === 'object') {
      containers.push(v);
      for (const child of Object.values(v)) walk(child);
    }
  };
  walk(copy);
  const target = rnd.pick(containers);
  const keys = Object.keys(target);
  const move = rnd.int(4);
  if (keys.length === 0 || move === 0) {
    (target as Record<string, Json>)[rnd.pick(['unexpected', 'a', '__proto__', 'constructor', 'x'.repeat(300)])] = rnd.pick(ODD_VALUES);
  } else if (move === 1 && !Array.isArray(target)) {
    delete target[rnd.pick(keys)];
  } else {
    (target as Record<string, Json>)[rnd.pick(keys)] = rnd.pick(ODD_VALUES);
  }
  return copy;
}
