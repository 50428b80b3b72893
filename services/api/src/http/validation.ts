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

export const validatorCompiler: FastifySchemaCompiler<Schema> = ({ schema, httpPart }) =>
  httpPart === 'body' ? bodies.compile(closeObjects(schema) as Schema) : text.compile(schema);
