import type { Collection, Doc, Filter, FindOptions } from '@comanda/read-store';
import type { FastifyReply } from 'fastify';
import { type PageQuery, page, pageOf } from './schemas.js';

/** The total a list holds, for clients that page through it. */
export const TOTAL_COUNT = 'x-total-count';

/**
 * One page of a projection and its total: the page as the query asks (`defaultLimit` when it names
 * none; null: everything), the count of every matching record in X-Total-Count.
 */
export async function findPage<T extends Doc>(
  reply: FastifyReply, collection: Collection<T>, filter: Filter, options: Pick<FindOptions, 'sort'>, query: PageQuery, defaultLimit: number | null = 20,
): Promise<{ items: T[]; total: number }> {
  const asked = page(query, defaultLimit);
  // The whole list (`?all=true`, as the POS asks every poll): its length is the total, no second query.
  const whole = asked.limit === undefined && !asked.skip;
  const [items, total] = whole
    ? await collection.find(filter, options).then((all) => [all, all.length] as const)
    : await Promise.all([collection.find(filter, { ...options, ...asked }), collection.count(filter)]);
  reply.header(TOTAL_COUNT, total);
  return { items, total };
}

/** One page of a list already in memory, its length in X-Total-Count. */
export function arrayPage<T>(reply: FastifyReply, items: readonly T[], query: PageQuery, defaultLimit: number | null = 20): T[] {
  reply.header(TOTAL_COUNT, items.length);
  return pageOf(items, query, defaultLimit);
}
