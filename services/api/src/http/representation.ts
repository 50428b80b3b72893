import type { Doc } from '@comanda/read-store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Representation } from './read-only-fields.js';

/** A path parameter of a request whose route is not known here ('' when absent). */
export const paramOf = (request: FastifyRequest, param: string): string => {
  const params = request.params;
  const id = params !== null && typeof params === 'object' ? (params as Record<string, unknown>)[param] : undefined;
  return typeof id === 'string' ? id : '';
};

/** A resource's representation as its GET answers it: `view` of its document in `collection`. */
export function storedAs<D extends Doc>(app: FastifyInstance, collection: string, view: (document: D) => object, param = 'id'): Representation {
  const documents = app.deps.readStore.collection<D>(collection);
  return async (request) => {
    const document = await documents.get(paramOf(request, param));
    return document ? { ...view(document) } : null;
  };
}
