import { randomUUID } from 'node:crypto';
import type { ClientKind } from './profile.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What one kind of request was answered in a round: each time it took (ms, to the end of the body), its
 * statuses, and the first message of each refusal.
 */
export interface KindTally { ms: number[]; statuses: Map<number, number>; why?: Map<number, string> }

/**
 * One server's service: the clock its clients keep time by, which runs only while the server's round is
 * on (the other build's rounds pause it, so both see the same dinner however the rounds interleave),
 * and the tally of the round under way.
 */
export class Service {
  private banked = 0;
  private since: number | null = null;
  private waiting: Array<() => void> = [];
  stopped = false;
  tally = new Map<string, KindTally>();
  /** The sign-in under way: the screens sign in one after another (see Session.login). */
  signingIn: Promise<unknown> = Promise.resolve();
  readonly name: string;
  readonly url: string;

  constructor(name: string, url: string) {
    this.name = name;
    this.url = url;
  }

  /** ms of service so far. */
  now(): number {
    return this.banked + (this.since === null ? 0 : performance.now() - this.since);
  }

  resume(): void {
    this.since = performance.now();
    for (const wake of this.waiting.splice(0)) wake();
  }

  pause(): void {
    this.banked = this.now();
    this.since = null;
  }

  stop(): void {
    this.stopped = true;
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Waits for the service's clock to reach `at`; false once the service is over. */
  async until(at: number): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      if (this.since === null) {
        await new Promise<void>((wake) => this.waiting.push(wake));
        continue;
      }
      const left = at - this.now();
      if (left <= 0) return true;
      await sleep(Math.min(left, 250));
    }
  }

  wait = (ms: number) => this.until(this.now() + ms);

  /** Counts a request of `kind` (`GET /tables?all`) a client of kind `client` made, under `client|kind`. */
  count(client: ClientKind, kind: string, ms: number, status: number, message = ''): void {
    let k = this.tally.get(`${client}|${kind}`);
    if (!k) this.tally.set(`${client}|${kind}`, (k = { ms: [], statuses: new Map() }));
    k.ms.push(ms);
    k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
    if ((status === 0 || status >= 400) && !k.why?.has(status)) (k.why ??= new Map()).set(status, message.slice(0, 100));
  }
}

export interface Answer { status: number; body: unknown; etag: string | null }

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Send back the ETag held for this URL (If-None-Match), as the screens' polls and the browser's cache do. */
  revalidate?: boolean;
  /** A write from the screens: a fresh Idempotency-Key. */
  idempotent?: boolean;
}

/**
 * A screen's session as the server sees it: its own cookies (the access token renewed through the
 * refresh cookie on a 401, once at a time, as the pages do), the ETag of every URL it has read, and
 * each request timed and counted under its kind (`GET /orders/:id/complete`).
 */
export class Session {
  private readonly cookies = new Map<string, string>();
  private readonly tags = new Map<string, string>();
  private refreshing: Promise<boolean> | null = null;
  readonly service: Service;
  readonly client: ClientKind;

  constructor(service: Service, client: ClientKind) {
    this.service = service;
    this.client = client;
  }

  cookie(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(kind: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    let answer = await this.send(kind, method, path, options);
    if (answer.status === 401 && this.cookies.has('refreshToken') && !path.startsWith('/auth/')) {
      this.refreshing ??= this.send('POST /auth/refresh', 'POST', '/auth/refresh').then((r) => r.status === 200).finally(() => (this.refreshing = null));
      if (await this.refreshing) answer = await this.send(kind, method, path, options);
    }
    return answer;
  }

  /**
   * Signs in, after the sign-in under way: staff arrive one by one, and sign-ins in flight at once count
   * against the throttle (at most five per name and fifty per address are checked before a lock: ten
   * kitchen screens signing in as the cook at once would be refused).
   */
  async login(name: string, pin: string): Promise<void> {
    const turn = this.service.signingIn.then(() => this.call('POST /auth/login', 'POST', '/auth/login', { body: { name, pin } }));
    this.service.signingIn = turn.catch(() => undefined);
    const answer = await turn;
    if (answer.status !== 200) throw new Error(`${name} could not sign in: ${answer.status}`);
  }

  private async send(kind: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const held = options.revalidate ? this.tags.get(path) : undefined;
    const headers: Record<string, string> = {
      ...(this.cookies.size ? { cookie: this.cookie() } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(held ? { 'if-none-match': held } : {}),
      ...(options.idempotent ? { 'idempotency-key': randomUUID() } : {}),
      ...options.headers,
    };
    const asked = performance.now();
    let status = 0;
    let text = '';
    let etag: string | null = null;
    try {
      const res = await fetch(this.service.url + path, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
      text = await res.text();
      status = res.status;
      etag = res.headers.get('etag');
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = pair!.split('=');
        if (value) this.cookies.set(name!, value);
        else this.cookies.delete(name!);
      }
    } catch {
      // A refused connection: counted as status 0.
    }
    this.service.count(this.client, kind, performance.now() - asked, status, text);
    // As the POS keeps it (usePolled): the tag of any answer that has one, an empty list's 204 too.
    if (etag && (status === 200 || status === 204) && options.revalidate) this.tags.set(path, etag);
    let body: unknown = text;
    try {
      if (text && (text[0] === '{' || text[0] === '[')) body = JSON.parse(text);
    } catch {
      // Not JSON after all: kept as text.
    }
    return { status, body, etag };
  }
}
