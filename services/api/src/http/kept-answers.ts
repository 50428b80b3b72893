import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { sendNoContent } from './replies.js';
import { TOTAL_COUNT } from './pages.js';

/**
 * A list's answer as it goes out: its JSON's UTF-8 bytes (null: the list was empty, a 204) and its total.
 * Bytes, not a string: a string is encoded again at every send (`writeUtf8String` was a third of a kept
 * answer's CPU for 12.9 KB of tables in `node --cpu-prof`).
 */
export interface ListAnswer { json: Buffer | null; total: number }

/**
 * The last answer of a polled list, kept with the strong ETag it was made under (issue 58). A strong ETag
 * promises the same bytes while it holds, so while a list's tag stays the same its answer is sent again
 * rather than read and serialised again: after a change the first tablet to poll pays the read, the other
 * thirty-nine of the floor get its bytes. Measured after the POS traffic bench's service (`npm run bench
 * -- pos-traffic`, 2026-11-28, 2 cores): `GET /tables?all=true`, 85 tables, 12.9 KB, cost 505–925 µs of
 * CPU per request reading the read model (the SQLite scan and the JSON parse of each document were 35 %
 * of the profile, serialisation 3 %), against 31 µs for bare Fastify sending the same bytes: 0.08×.
 *
 * A route names it (`kept.answer(key, tag, build)`) after taking its tag and answering its 304: nothing
 * here decides an answer on the route's behalf. The tag is taken before the read, so a kept answer is
 * never older than its tag. The key is the request's URL within the route (its filter and its page):
 * the route keeps at most `LIMIT` of them, the oldest dropped first, so odd query strings cannot grow it.
 * Where the store is shared (PostgreSQL), the tag is the projector's checkpoint and moves with every
 * event: kept answers then serve only the polls between two events.
 */
export class KeptAnswers {
  private static readonly LIMIT = 16;
  private readonly kept = new Map<string, { tag: string; answer: Promise<ListAnswer> }>();

  /** The answer kept for this key under this tag, or the one `build` makes (once, for every request waiting on it). */
  answer(key: string, tag: string, build: () => Promise<ListAnswer>): Promise<ListAnswer> {
    const kept = this.kept.get(key);
    if (kept?.tag === tag) return kept.answer;
    const answer = build();
    this.kept.delete(key);
    if (this.kept.size >= KeptAnswers.LIMIT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { tag, answer });
    // A read that failed is not kept: the next request reads again.
    answer.catch(() => { if (this.kept.get(key)?.answer === answer) this.kept.delete(key); });
    return answer;
  }
}

/**
 * The list's JSON as the route's own response schema serialises it; null for an empty list of the seed's
 * resources, which answer 204 (`emptyIs: 'no content'`), where the order queries answer `[]`.
 */
export function listAnswer(reply: FastifyReply, items: unknown[], total: number, emptyIs: 'no content' | 'an empty array'): ListAnswer {
  if (items.length === 0 && emptyIs === 'no content') return { json: null, total };
  return { json: Buffer.from(String(reply.serialize(items))), total };
}

/** Sends a list's answer: its bytes as JSON with X-Total-Count, or the 204 of an empty list. */
export function sendListAnswer(reply: FastifyReply, answer: ListAnswer): FastifyReply {
  reply.header(TOTAL_COUNT, answer.total);
  if (answer.json === null) return sendNoContent(reply);
  return reply.type('application/json; charset=utf-8').send(answer.json);
}

const digests = new WeakMap<ListAnswer, string>();
/**
 * A strong ETag made of a kept answer's bytes (worked out once per answer): for a list whose
 * collections move far more often than what it says (the open orders' bills, GET /orders/open/bills).
 */
export function bytesTag(answer: ListAnswer): string {
  let tag = digests.get(answer);
  if (!tag) {
    tag = `"b${createHash('sha256').update(answer.json ?? '').digest('base64url').slice(0, 22)}"`;
    digests.set(answer, tag);
  }
  return tag;
}
