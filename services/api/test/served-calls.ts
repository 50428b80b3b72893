import type { servedApp } from './harness.js';

/**
 * JSON requests over HTTP to a served app, as a manager unless another member's Cookie header is
 * given: the status, the headers a test reads (ETag, Location) and the parsed body.
 */
export function jsonCalls(s: Awaited<ReturnType<typeof servedApp>>, manager: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, cookie = manager) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), location: res.headers.get('location'), body: text ? JSON.parse(text) : undefined };
  };
}
