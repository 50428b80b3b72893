/**
 * The id the API gives what a POST creates, worked out on the tablet before the POST is sent: the API
 * derives it from the Idempotency-Key scoped to the member who sends it (idFromKey in
 * packages/domain/src/ids.ts: sha256 of the parts joined by NUL, first 16 bytes as a UUID v4). So an
 * order seated offline has its real id at once: the writes that follow it (dishes, fire) name it, and
 * nothing is mapped on replay. The e2e test of the outbox checks the id the server gives is this one.
 */
export async function idFromKey(...parts: string[]): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parts.join('\u0000')));
  const bytes = new Uint8Array(digest).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What a write creates, by its path: an order (POST /orders) or lines (POST /orders/{id}/dishes). */
export async function createdIds(userId: string, key: string, method: string, path: string, body: unknown): Promise<{ order?: string; lines?: string[] }> {
  const scoped = `${userId}:${key}`;
  if (method === 'POST' && path === '/orders') return { order: await idFromKey('order', scoped) };
  if (method === 'POST' && /^\/orders\/[^/]+\/dishes$/.test(path) && Array.isArray(body)) {
    return { lines: await Promise.all(body.map((_, i) => idFromKey('line', scoped, String(i)))) };
  }
  return {};
}
