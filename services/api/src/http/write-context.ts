import { createHash } from 'node:crypto';
import { idFromKey, newId, validationFailed } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { FastifyReply, FastifyRequest } from 'fastify';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The Idempotency-Key header, validated, scoped to who sent it (the signed-in member, or whom a
 * sign-in-free write names, as a time-clock punch does).
 */
export function idempotencyKey(request: FastifyRequest, who = request.staff?.id ?? 'anonymous'): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY.test(key)) {
    throw validationFailed([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  }
  return `${who}:${key}`;
}

/**
 * Who, why and the idempotency fingerprint of a write. The fingerprint covers method, route, path
 * parameters and body, so a key reused for a different request is refused instead of replayed.
 */
export function writeContext(request: FastifyRequest): CommandContext {
  const key = idempotencyKey(request);
  const context: CommandContext = { userId: request.staff?.id ?? null, correlationId: request.id };
  if (key) {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([request.method, request.routeOptions.url, request.params, request.body]))
      .digest('hex');
    context.idempotency = { key, fingerprint };
  }
  return context;
}

/** The id of a resource a POST creates: derived from the Idempotency-Key when there is one. */
export function newResourceId(request: FastifyRequest, kind: string): string {
  const key = idempotencyKey(request);
  return key ? idFromKey(kind, key) : newId();
}

/** If-Match: "<version>" (weak or strong); undefined when absent or `*`. */
export function ifMatch(request: FastifyRequest): number | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined || raw.trim() === '*') return undefined;
  const m = /^\s*(?:W\/)?"(\d+)"\s*$/.exec(raw);
  if (!m) throw validationFailed([{ field: 'If-Match', message: 'must be an ETag returned by a GET, e.g. "3"' }]);
  return Number(m[1]);
}

export const setEtag = (reply: FastifyReply, version: number): FastifyReply => reply.header('etag', `"${version}"`);
