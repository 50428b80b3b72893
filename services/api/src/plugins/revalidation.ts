import { randomBytes } from 'node:crypto';
import type { Filter, ReadStore } from '@comanda/read-store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The ETag of an answer made from these read-model collections and nothing else (not the caller,
     * the clock or a header): it changes when one of them does. Taken before the route reads.
     */
    collectionsTag(collections: readonly string[]): () => Promise<string>;
    /**
     * The ETag of an answer made from the documents of one collection that match a filter: how many
     * match, and the revision of the one changed last. Taken before the route reads.
     */
    matchingTag(collection: string, filter: Filter): Promise<string>;
  }
}

export interface RevalidationOptions {
  readStore: Pick<ReadStore, 'generation' | 'getCheckpoint' | 'collection'>;
  /** The checkpoints as this replica follows them (announced, not read per request), when it does. */
  checkpoints?: { position(name: string): Promise<bigint | null> };
}

/** Every answer with an ETag is the client's alone to keep, and asked again before each use. */
export const REVALIDATE = 'private, no-cache';

/**
 * What a collection tag is made of: where the read store is written by this process alone (memory,
 * SQLite: `ReadStore.generation`), the generation of each collection the route reads, with a token of
 * this process's start (generations restart from 0); where it is shared (PostgreSQL, MongoDB, written by
 * the projector), the projector's checkpoint, which moves with every event it applies (coarser, and the
 * same on every replica). A route takes its tag before it reads, so an answer is never newer than a tag
 * that says it is older: a write in between only costs the next request a full answer.
 */
export default fp(async function revalidation(app: FastifyInstance, options: RevalidationOptions) {
  const store = options.readStore;
  const { checkpoints } = options;
  const projector = checkpoints ? () => checkpoints.position('projector') : () => store.getCheckpoint('projector');
  const started = randomBytes(6).toString('base64url');
  const generation = store.generation?.bind(store);
  app.decorate('collectionsTag', (collections: readonly string[]) => {
    if (!generation) return async () => `"p${(await projector()) ?? 'none'}"`;
    return async () => `"${started}.${collections.map((c) => generation(c)).join('.')}"`;
  });
  // A list of a busy collection (the open orders of one state, which a floor of tablets polls every two
  // seconds) changes far less often than the collection: a tag of the collection would move with every
  // line added anywhere. This one moves only when a document joins the list, leaves it (the count) or
  // changes (its revision, `_position`, is then the newest: the projector applies the log in order).
  // Two small queries on the collection's indexes instead of reading the list; the same on every replica.
  //
  // Those two queries read every matching document's JSON in SQLite (the filter's type check and the
  // newest `_position` are not in the index): 873 µs of CPU per request for the ready orders after the POS
  // traffic bench's service. Where this process writes the store (a `generation` per collection), a tag
  // worked out under one generation holds until the collection's generation moves, so it is kept with it.
  const kept = new Map<string, { generation: number; tag: Promise<string> }>();
  const matching = async (collection: string, filter: Filter) => {
    const documents = store.collection<{ _id: string; _position?: string }>(collection);
    const [count, newest] = await Promise.all([documents.count(filter), documents.find(filter, { sort: { _position: -1 }, limit: 1 })]);
    return `"m${count}.${newest[0]?._position ?? '0'}"`;
  };
  app.decorate('matchingTag', (collection: string, filter: Filter) => {
    if (!generation) return matching(collection, filter);
    const key = `${collection} ${JSON.stringify(filter)}`;
    const now = generation(collection);
    const known = kept.get(key);
    if (known?.generation === now) return known.tag;
    const tag = matching(collection, filter);
    // A handful of filters (the open states, an order's bills): bounded so ids in filters cannot grow it.
    if (kept.size >= 256) kept.delete(kept.keys().next().value!);
    const entry = { generation: now, tag };
    kept.set(key, entry);
    // Only this entry is dropped on a failure: a newer generation's may have taken its place meanwhile.
    tag.catch(() => kept.get(key) === entry && kept.delete(key));
    return tag;
  });
});

/** A document's ETag: its version, the one `If-Match` names on a write (http/write-context.ts). */
export const versionTag = (version: number): string => `"${version}"`;

/**
 * The ETag of an answer made from one read-model document alone, whichever projections wrote it (an
 * order's lines and the kitchen's progress on them): the log position of the last event applied to it,
 * the same on every replica. (A release that reshapes such a view answers a client still holding an
 * old tag 304 until the document next changes: the screens reload with a release.)
 */
export const revisionTag = (document: { _position: string }): string => `"r${document._position}"`;

/**
 * HTTP revalidation, called by the route with its answer's tag before it reads anything more: sets the
 * ETag and `Cache-Control: private, no-cache`; when the client's `If-None-Match` already holds the tag,
 * answers 304 with no body and returns true (the route then returns the reply). A polling tablet costs
 * its authorisation and a tag while nothing it shows has changed. A failure after this (plugins/errors.ts)
 * goes out without the tag.
 */
export function unchanged(request: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  reply.header('etag', tag).header('cache-control', REVALIDATE);
  if (!matches(request.headers['if-none-match'], tag)) return false;
  reply.code(304).send();
  return true;
}

/** `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags compared weakly (a `W/` prefix ignored). */
export function matches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag);
}
