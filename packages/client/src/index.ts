import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

export type { components, paths };
/** A schema of the API by name: `Schema<'Order'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface ComandaClientOptions {
  /** Where the API answers: `http://127.0.0.1:3000`. */
  baseUrl: string;
  /**
   * `cookies` (browsers, the default there): the HttpOnly cookies the browser keeps, refreshed with
   * POST /auth/refresh. `tokens` (any other client, the default elsewhere): bearer tokens held in this
   * object's memory, refreshed with POST /auth/token/refresh.
   */
  session?: 'cookies' | 'tokens';
  /** How often a request is sent again after a network failure or a 503 (writes keep their Idempotency-Key). */
  retries?: number;
  /** Longest wait between two tries, whatever Retry-After asks (ms). */
  maxRetryWaitMs?: number;
  /**
   * Called once when the session has ended (a refresh was refused): sign in again. `byManager`: a
   * manager ended it from the back office (POST /sessions/{id}/revoke), which the refusal says.
   */
  onSignedOut?: (why: { byManager: boolean }) => void;
  fetch?: (request: Request) => Promise<Response>;
}

export interface ComandaClient {
  /** The typed API: `api.POST('/orders', { body })`, every path, body and answer typed from the document. */
  api: Client<paths>;
  /** One request through the session (refreshed on a 401) and the retries: what `api` sends with. */
  fetch(request: Request): Promise<Response>;
  /**
   * Signs in (cookies or tokens, as `session` says) and answers who. `device`: what the back office
   * calls this device ("Tablet 3"), listed with its session.
   */
  signIn(name: string, pin: string, device?: string): Promise<{ id: string; name: string; role: string }>;
  signOut(): Promise<void>;
}

/**
 * Requests that carry their own credentials: the session's own, and a time clock punch (name and PIN,
 * issue 60). Sent once as they are: their 401 is about what they carry, never a session to refresh.
 */
const SESSION_PATHS = /\/(auth\/(login|refresh|logout|token(\/refresh|\/revoke)?)|time-clock\/punch)$/;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Thrown by signIn: wrong name or PIN (401), or locked for `retryAfter` seconds (429). */
export class SignInRefused extends Error {
  override name = 'SignInRefused';
  readonly status: number;
  readonly retryAfter: number | null;
  constructor(status: number, retryAfter: number | null) {
    super(status === 429 ? `too many failed attempts: try again in ${retryAfter} s` : 'invalid name or PIN');
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/**
 * The official client of the Comanda API. Every write gets an Idempotency-Key (a UUID) unless the
 * caller gave one, so a retry — after a network failure, a 503, or a refreshed session — is applied
 * once. A 401 refreshes the session once (rotation: concurrent 401s share one refresh) and the request
 * is sent again; a refused refresh ends the session (`onSignedOut`).
 */
export function createComandaClient(options: ComandaClientOptions): ComandaClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const mode = options.session ?? ('document' in globalThis ? 'cookies' : 'tokens');
  const retries = options.retries ?? 2;
  const maxWait = options.maxRetryWaitMs ?? 5_000;
  const base = options.baseUrl.replace(/\/$/, '');
  let tokens: { access: string; refresh: string } | null = null;
  let refreshing: Promise<boolean> | null = null;
  /** Whether the last refused refresh said a manager ended the session. */
  let byManager = false;
  /** Moves on each refresh that succeeded: a 401 to a request sent before one is answered by retrying, not by another refresh. */
  let renewals = 0;

  const post = (path: string, body?: unknown) =>
    baseFetch(new Request(`${base}${path}`, {
      method: 'POST', credentials: 'include',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }));

  /** Whether a refresh was answered; a refusal is read for its reason. */
  const answered = async (res: Response): Promise<boolean> => {
    if (res.ok) return true;
    const body: unknown = await res.json().catch(() => null);
    byManager = typeof body === 'object' && body !== null && 'reason' in body && body.reason === 'signed out by a manager';
    return false;
  };
  const refresh = (): Promise<boolean> => (refreshing ??= (async () => {
    byManager = false;
    try {
      if (mode === 'cookies') return await answered(await post('/auth/refresh'));
      if (!tokens) return false;
      const res = await post('/auth/token/refresh', { refresh_token: tokens.refresh });
      if (!(await answered(res))) return false;
      const pair = (await res.json()) as { access_token: string; refresh_token: string };
      tokens = { access: pair.access_token, refresh: pair.refresh_token };
      return true;
    } catch {
      return false;
    }
  })().then((ok) => {
    if (ok) renewals++;
    if (!ok) {
      tokens = null;
      options.onSignedOut?.({ byManager });
    }
    return ok;
  }).finally(() => {
    refreshing = null;
  }));

  /** One try, as often as a network failure or a 503 allows. */
  const tries = async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const copy = request.clone();
      if (tokens) copy.headers.set('authorization', `Bearer ${tokens.access}`);
      try {
        const res = await baseFetch(copy);
        if (res.status !== 503 || attempt >= retries) return res;
        await sleep(Math.min(maxWait, Number(res.headers.get('retry-after') ?? 1) * 1000));
      } catch (error) {
        if (attempt >= retries) throw error;
        await sleep(Math.min(maxWait, 250 * 2 ** attempt));
      }
    }
  };

  const send = async (request: Request): Promise<Response> => {
    if (SESSION_PATHS.test(new URL(request.url).pathname)) return baseFetch(request);
    if (!READS.has(request.method) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', crypto.randomUUID());
    const sentWith = renewals;
    const res = await tries(request);
    if (res.status !== 401) return res;
    // Sent with the access token a refresh has replaced since (several reads polled at once): the new one will do.
    if (renewals !== sentWith) return tries(request);
    if (!(await refresh())) return res;
    return tries(request);
  };

  const api = createClient<paths>({ baseUrl: base, fetch: send, credentials: 'include' });

  return {
    api,
    fetch: send,
    async signIn(name, pin, device) {
      const res = await post(mode === 'cookies' ? '/auth/login' : '/auth/token', { name, pin, ...(device ? { device } : {}) });
      if (!res.ok) throw new SignInRefused(res.status, res.status === 429 ? Number(res.headers.get('retry-after')) : null);
      const body = (await res.json()) as { user: { id: string; name: string; role: string }; access_token?: string; refresh_token?: string };
      if (body.access_token && body.refresh_token) tokens = { access: body.access_token, refresh: body.refresh_token };
      return body.user;
    },
    async signOut() {
      if (mode === 'cookies') await post('/auth/logout');
      else if (tokens) await post('/auth/token/revoke', { refresh_token: tokens.refresh });
      tokens = null;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
