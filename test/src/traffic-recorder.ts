import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CDPSession, Page } from 'puppeteer-core';
import { type ClientKind, type RecordedRequest, profileOf, profileText } from './bench/traffic/profile.js';

export type { ClientKind };

/**
 * The traffic a dinner's screens make, as the server sees it: opt-in with
 * `COMANDA_RECORD_TRAFFIC=<profile.json>` (the e2e dinner then writes the profile there, and every
 * request beside it in `<profile>.requests.json`). Read from each page's own DevTools session, so the
 * server is untouched and what is recorded is what left the browser: the headers the network stack sent
 * (an `If-None-Match` the browser's cache added included), the status that came back, and the time from
 * sending the request to its answer's headers. Requests served from the browser's cache never reach the
 * server and are kept apart (`fromCache`).
 */
const target = process.env.COMANDA_RECORD_TRAFFIC;

interface Pending {
  client: ClientKind;
  who: string;
  sentAt: number;
  method: string;
  url: string;
  type: string;
  headers: Record<string, string>;
  status?: number;
  /** The status as it came over the wire (a 304 the browser's cache turned into its kept 200). */
  wireStatus?: number;
  ms?: number;
  fromCache?: boolean;
  failed?: string;
}

const lower = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));

class TrafficRecorder {
  private readonly requests = new Map<string, Pending>();
  private readonly sessions: CDPSession[] = [];
  private readonly started = Date.now();

  /** Records every request `page` makes from now on as `who`'s, a client of kind `client`. */
  async watch(page: Page, who: string, client: ClientKind): Promise<void> {
    const cdp = await page.createCDPSession();
    this.sessions.push(cdp);
    // Request ids are unique within a page's session only.
    const session = this.sessions.length;
    const keyOf = (id: string) => `${session}/${id}`;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.redirectResponse) return;
      const known = this.requests.get(keyOf(e.requestId));
      this.requests.set(keyOf(e.requestId), {
        client, who, sentAt: Date.now() - this.started, method: e.request.method, url: e.request.url, type: e.type ?? 'Other',
        // The extra info (the headers as sent) may arrive first.
        headers: { ...lower(e.request.headers), ...(known?.headers ?? {}) },
      });
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
      const known = this.requests.get(keyOf(e.requestId));
      if (known) Object.assign(known.headers, lower(e.headers));
      else this.requests.set(keyOf(e.requestId), { client, who, sentAt: Date.now() - this.started, method: '', url: '', type: '', headers: lower(e.headers) });
    });
    cdp.on('Network.responseReceived', (e) => {
      const known = this.requests.get(keyOf(e.requestId));
      if (!known) return;
      const { status, timing, fromDiskCache, fromPrefetchCache, fromServiceWorker } = e.response;
      known.status = status;
      known.fromCache = Boolean(fromDiskCache || fromPrefetchCache || fromServiceWorker);
      if (timing) known.ms = Math.max(0, timing.receiveHeadersEnd - timing.sendStart);
    });
    cdp.on('Network.responseReceivedExtraInfo', (e) => {
      const known = this.requests.get(keyOf(e.requestId));
      if (known) known.wireStatus = e.statusCode;
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const known = this.requests.get(keyOf(e.requestId));
      if (known) known.fromCache = true;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const known = this.requests.get(keyOf(e.requestId));
      if (known && known.status === undefined) known.failed = e.errorText;
    });
    await cdp.send('Network.enable');
  }

  /**
   * Writes the profile and the requests. Route patterns come from the server's own OpenAPI document
   * (`/swagger/json`): a path is matched to the template with the most literal segments.
   */
  async save(url: string, how: string): Promise<string> {
    const origin = new URL(url).origin;
    const spec = (await (await fetch(`${origin}/swagger/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const route = routeMatcher(spec.paths);
    const requests: RecordedRequest[] = [];
    for (const r of this.requests.values()) {
      if (!r.url.startsWith(origin)) continue;
      const u = new URL(r.url);
      const h = r.headers;
      requests.push({
        client: r.client, who: r.who, at: r.sentAt, method: r.method, route: route(r.method, u.pathname), path: u.pathname, type: r.type,
        query: [...new Set(u.searchParams.keys())].sort(),
        ifNoneMatch: 'if-none-match' in h, ifMatch: 'if-match' in h, idempotencyKey: 'idempotency-key' in h,
        approval: 'x-approval-name' in h, accept: h.accept ?? null,
        status: r.wireStatus ?? r.status ?? null, ms: r.ms === undefined ? null : Math.round(r.ms * 100) / 100, fromCache: r.fromCache ?? false,
        ...(r.failed ? { failed: r.failed } : {}),
      });
    }
    requests.sort((a, b) => a.at - b.at);
    const file = resolve(target!);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file.replace(/\.json$/, '') + '.requests.json', JSON.stringify(requests, null, 0).replaceAll('},{', '},\n{') + '\n');
    const commit = (() => {
      try {
        return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
      } catch {
        return 'unknown';
      }
    })();
    writeFileSync(file, profileText(profileOf(requests, `${how}; build ${commit}, ${new Date().toISOString().slice(0, 16)}Z`)));
    await Promise.all(this.sessions.map((s) => s.detach().catch(() => undefined)));
    return file;
  }
}

/** `(method, path) → '/orders/:id'`: the OpenAPI template the path fits, or `static` (pages, scripts, styles). */
export function routeMatcher(paths: Record<string, Record<string, unknown>>): (method: string, path: string) => string {
  const templates = Object.entries(paths).map(([template, methods]) => {
    const parts = template.split('/');
    return {
      route: parts.map((p) => p.replace(/^\{(.+)\}$/, ':$1')).join('/'),
      methods: new Set(Object.keys(methods).map((m) => m.toUpperCase())),
      parts,
      literals: parts.filter((p) => !p.startsWith('{')).length,
    };
  });
  return (method, path) => {
    const segments = path.split('/');
    const fits = templates.filter((t) => t.methods.has(method) && t.parts.length === segments.length && t.parts.every((p, i) => p.startsWith('{') || p === segments[i]));
    fits.sort((a, b) => b.literals - a.literals);
    return fits[0]?.route ?? 'static';
  };
}

/** The recorder when `COMANDA_RECORD_TRAFFIC` is set, else null (nothing is watched). */
export const traffic = target ? new TrafficRecorder() : null;
