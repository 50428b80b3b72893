import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own response serialisers (fast-json-stringify, the same options and shared schemas),
 * each compiled when its route first answers with that status rather than at boot: compiling every
 * route's serialisers was 0.6 s of a 2.7 s start (`node --cpu-prof`), and most are not used in the
 * first seconds after a restart. A route's first answer pays its compile once.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc) => (serialize ??= compile(route))(doc);
  };
};
