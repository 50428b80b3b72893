import { type Permission, notFound } from '@comanda/domain';
import type { Tracked } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { EmptyList } from './resources.js';
import { KeptAnswers, listAnswer, sendListAnswer } from './kept-answers.js';
import { Headers, IdParams, OptionalPagination, PAGED_BY_CHOICE, commonErrors, withHeaders } from './schemas.js';
import { findPage } from './pages.js';
import { REVALIDATE, unchanged, versionTag } from '../plugins/revalidation.js';

export interface ResourceReads<D extends Tracked & { name: string; version: number }> {
  /** '/dishes': the list at the path, one document at `<path>/:id`. */
  path: string;
  tags: string[];
  /** Plural, in the restaurant's words ('dishes', 'dish categories'). */
  plural: string;
  permission: Permission;
  collection: string;
  /** The resource as answered; `view` strips the read model's internal fields. */
  schema: TSchema;
  view(document: D): unknown;
  /**
   * The answer as of now, where it depends on more than the documents (the business day a dish's 86
   * holds for, the hours in force): `tag` is part of the list's ETag, `view` replaces `view`. Taken before the read.
   */
  moment?: () => Promise<{ tag: string; view(document: D): unknown }>;
  /**
   * false: one document is always answered in full, its ETag (its version, for If-Match) never a 304;
   * for a document whose answer changes without its version moving (a dish's sold-out state).
   */
  notModifiedOne?: boolean;
  /** The list's order when not by name, and its words for the summary (categories: their display order first). */
  order?: { sort: Record<string, 1 | -1>; words: string };
  /** Which documents the list shows, and its words for the summary (dishes: not archived); absent: all. */
  listed?: { filter: Record<string, unknown>; words: string };
}

/**
 * The two GETs every menu and floor resource answers from its projection: the list sorted by name (or `order`)
 * (204 with no body when empty) and one document with its version as ETag, for If-Match.
 */
export function resourceReads<D extends Tracked & { name: string; version: number }>(fastify: FastifyInstance, o: ResourceReads<D>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const documents = app.deps.readStore.collection<D>(o.collection);
  const listTag = app.collectionsTag([o.collection]);
  const lists = new KeptAnswers();

  app.get(o.path, {
    config: { permission: o.permission },
    schema: {
      tags: o.tags, summary: `List ${o.plural}${o.listed ? ` ${o.listed.words}` : ''} by ${o.order?.words ?? 'name'}`, description: PAGED_BY_CHOICE, querystring: OptionalPagination,
      response: { 200: withHeaders(Type.Array(o.schema), Headers.totalCount), 204: EmptyList(o.plural), ...commonErrors },
    },
  }, async (request, reply) => {
    const collectionTag = await listTag();
    const moment = await o.moment?.();
    const tag = moment ? `${collectionTag.slice(0, -1)}.${moment.tag}"` : collectionTag;
    if (unchanged(request, reply, tag)) return reply;
    return sendListAnswer(reply, await lists.answer(request.url, tag, async () => {
      const { items, total } = await findPage(reply, documents, o.listed?.filter ?? {}, { sort: o.order?.sort ?? { name: 1 } }, request.query, null);
      return listAnswer(reply, items.map((d) => (moment ?? o).view(d)), total, 'no content');
    }));
  });

  app.get(`${o.path}/:id`, {
    config: { permission: o.permission },
    schema: { tags: o.tags, summary: 'One by id, with its version as ETag (for If-Match and If-None-Match)', params: IdParams, response: { 200: withHeaders(o.schema, Headers.etag), ...commonErrors } },
  }, async (request, reply) => {
    const moment = await o.moment?.();
    const document = await documents.get(request.params.id);
    if (!document) throw notFound();
    if (o.notModifiedOne === false) reply.header('etag', versionTag(document.version)).header('cache-control', REVALIDATE);
    else if (unchanged(request, reply, versionTag(document.version))) return reply;
    return (moment ?? o).view(document);
  });
}
