import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS: imported from ESM, its default is `module.exports`, the plugin itself,
// which carries the plugin again as `.default` (how TypeScript types a CommonJS default here).
const addFormats = addFormatsModule.default;

const common: Options = { useDefaults: true, allErrors: true, strict: false, addUsedSchema: false };

/**
 * JSON bodies are typed strictly: a number field takes a JSON number only (never `"12"` or `true`),
 * a string field a JSON string, and unknown fields are refused, so a typo never silently does nothing.
 * Query strings, path parameters and headers arrive as text, so there "20" is read as 20 and
 * "true" as true; unknown query parameters are dropped as before.
 */
const bodies = addFormats(new Ajv({ ...common, coerceTypes: false, removeAdditional: false }));
const text = addFormats(new Ajv({ ...common, coerceTypes: 'array', removeAdditional: true }));

type Schema = Record<string, unknown>;

/** Every object in a body schema refuses properties it does not list, unless it says otherwise. */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    // `properties` maps names to schemas: close each schema, never treat the map as a schema.
    out[key] = key === 'properties' || key === 'patternProperties'
      ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, closeObjects(v)]))
      : closeObjects(value);
  }
  const isObject = out.type === 'object' || (out.properties !== undefined && out.type === undefined);
  if (isObject && out.additionalProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
  return out;
}

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);
const CONSTRAINTS = ['type', 'const', 'enum', 'anyOf', 'oneOf', 'allOf', 'not', '$ref', 'properties', 'items'];

/** Whether `null` may pass the schema: a nullable type, a null among the choices, or no constraint at all. */
export function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isSchema(schema)) return false;
  // Nothing that could refuse a null (Type.Unknown(), or a $ref this walk does not follow): keep it.
  if (schema.$ref !== undefined || !CONSTRAINTS.some((k) => k in schema)) return true;
  if (schema.nullable === true || schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if ('const' in schema) return schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) return choices.some(acceptsNull);
  if (Array.isArray(schema.allOf)) return schema.allOf.every(acceptsNull);
  return false;
}

type Prune = (value: unknown) => void;

/**
 * What drops, from a body, every `null` given for an optional property that does not take null
 * (`status: null` on POST /tables reads as no status: its default applies), in nested objects and
 * arrays of them too; null when the schema has no such property. A property that takes null (a
 * table's `order_id`) keeps it, and a required one stays required (its null is refused). Under
 * `anyOf`/`oneOf` which branch applies is not known before validation, so nothing there is dropped.
 */
export function nullsAsAbsent(schema: unknown): Prune | null {
  if (!isSchema(schema)) return null;
  const steps: Prune[] = [];
  if (isSchema(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const optional = Object.entries(schema.properties).filter(([k, v]) => !required.has(k) && !acceptsNull(v)).map(([k]) => k);
    const nested = Object.entries(schema.properties).flatMap(([k, v]) => {
      const prune = nullsAsAbsent(v);
      return prune ? [[k, prune] as const] : [];
    });
    if (optional.length > 0 || nested.length > 0) {
      steps.push((value) => {
        if (!isSchema(value)) return;
        for (const k of optional) if (value[k] === null) delete value[k];
        for (const [k, prune] of nested) prune(value[k]);
      });
    }
  }
  const items = nullsAsAbsent(schema.items);
  if (items) steps.push((value) => Array.isArray(value) && value.forEach(items));
  if (steps.length === 0) return null;
  return (value) => steps.forEach((step) => step(value));
}

/** A body's validator: nulls meaning "left out" dropped (see `nullsAsAbsent`), then the closed schema checked. */
function bodyValidator(schema: Schema) {
  const closed = closeObjects(schema) as Schema;
  const validate = bodies.compile(closed);
  const prune = nullsAsAbsent(closed);
  if (!prune) return validate;
  const validator = Object.assign((data: unknown) => {
    prune(data);
    const valid = validate(data);
    validator.errors = validate.errors;
    return valid;
  }, { errors: null as typeof validate.errors });
  return validator;
}

export const validatorCompiler: FastifySchemaCompiler<Schema> = ({ schema, httpPart }) =>
  httpPart === 'body' ? bodyValidator(schema) : text.compile(schema);
