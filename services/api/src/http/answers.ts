import type { Permission } from '@comanda/domain';

/** A GET whose answers may be kept (`config.answerFrom`), as the cache knows it. */
export interface CachedRoute {
  /** The route's pattern: its answers are counted under it. */
  url: string;
  /** The read-model collections its answers are made from. */
  from: readonly string[];
  /**
   * Who may be sent its answers before routing (answers-before-routing.ts): everyone (`null`), whoever
   * holds the permission, or nobody (`undefined`: the route has other onRequest hooks, which only
   * Fastify runs).
   */
  beforeRouting: Permission | null | undefined;
}

/**
 * What a cached answer restores: its body as sent, kept encoded (a hit then writes the bytes as they
 * are: encoding a 15–30 kB list string for every answer was a tenth of its CPU), and every header the
 * miss sent, in its order, as the flat list `writeHead` takes.
 */
export interface Answer {
  route: CachedRoute;
  stamp: Stamp;
  body: Buffer;
  headers: string[];
  /** Hit since the eviction sweep last passed it (a second chance: see `Answers`). */
  used: boolean;
}

/** The generations an answer was made at: the number itself for one collection, joined for several. */
export type Stamp = number | string;

const MAX_ANSWERS = 1000;
/** Answers longer than this (a whole year `?all=true`) are computed each time rather than kept. */
export const MAX_ANSWER_BYTES = 512 * 1024;
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Answers by URL, the least recently used dropped first, approximately (the CLOCK algorithm): a hit
 * only marks its answer used, and the sweep on an insert over the bounds moves a used answer to the
 * back once instead of dropping it. Moving the answer to the back of the Map on every hit (a delete
 * and a set) cost a hit about a microsecond.
 */
export class Answers {
  private readonly map = new Map<string, Answer>();
  private bytes = 0;

  get(key: string): Answer | undefined {
    const a = this.map.get(key);
    if (a) a.used = true;
    return a;
  }

  set(key: string, a: Answer): void {
    this.drop(key);
    this.map.set(key, a);
    this.bytes += a.body.length;
    while (this.map.size > MAX_ANSWERS || this.bytes > MAX_BYTES) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      if (oldest.used) {
        oldest.used = false;
        this.map.delete(oldestKey);
        this.map.set(oldestKey, oldest);
      } else {
        this.drop(oldestKey);
      }
    }
  }

  private drop(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.bytes -= old.body.length;
  }
}

/**
 * The headers an answer goes out with, as `[name, value, …]` with its Content-Length last (where
 * Fastify writes it); none when the answer sets a cookie, which belongs to one request, not to the URL.
 */
export function sentHeaders(headers: Record<string, unknown>, length: number): string[] | undefined {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'set-cookie' || Array.isArray(value)) return undefined;
    if (name !== 'content-length' && value !== undefined) flat.push(name, String(value));
  }
  flat.push('content-length', String(length));
  return flat;
}
