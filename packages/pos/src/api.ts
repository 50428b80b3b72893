import { type Schema, type paths } from '@comanda/client';
import createClient from 'openapi-fetch';
import { useEffect, useRef, useState } from 'preact/hooks';
import { comanda, online, signedOut, signedOutByManager } from './network.js';
import { enqueue } from './offline/outbox.js';
import { read } from './offline/reads.js';
import { signal, useSignal, type Signal } from './signal.js';

export type { Schema, Signal };
export { comanda, online, signal, signedOut, signedOutByManager, useSignal };

/** The kitchen display's client: straight to the network (it has no outbox; a bump is retried). */
export const direct = comanda.api;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The POS screens' client. A read comes from the server and is kept on the tablet (with no network,
 * the kept one); a write goes into the outbox with its Idempotency-Key and is sent from there until
 * the server answers it (offline/outbox.ts): one key per thing the waiter meant to do, whatever
 * happens to the network, the tab or the tablet.
 */
export const api = createClient<paths>({
  baseUrl: location.origin,
  credentials: 'include',
  fetch: (request: Request) => (READS.has(request.method) ? read(request) : enqueue(request)),
});

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or an ApiError with the server's message (and its field errors, if any). */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  if (response.ok) throw new ApiError(response.status, 'empty answer');
  throw new ApiError(response.status, messageOf(error) ?? `${response.status} ${response.statusText}`);
}

function messageOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object' || !('message' in error)) return undefined;
  const fields = 'errors' in error && Array.isArray(error.errors) ? error.errors : [];
  const details = fields.map((f: { field?: string; message?: string }) => `${f.field}: ${f.message}`).join('; ');
  return details ? `${String(error.message)} (${details})` : String(error.message);
}

/**
 * A 202: the write is recorded but the lists do not show it yet (a replica behind). The screens then
 * work out what they show themselves or read it again: the write itself is never sent twice.
 */
export const accepted = (answer: object): answer is { message: string; location?: string } => Object.keys(answer).every((k) => k === 'message' || k === 'location');

/** One key per thing the waiter means to do once: kept across retries, renewed after it is done. */
export const newKey = () => crypto.randomUUID();

/** The kitchen display's writes sent and not answered yet (the POS's wait in its outbox instead). */
export const writesInFlight = signal(0);

/** Counts a kitchen write in flight while it runs. */
export async function writing<T>(run: () => Promise<T>): Promise<T> {
  writesInFlight.set(writesInFlight.get() + 1);
  try {
    return await run();
  } finally {
    writesInFlight.set(writesInFlight.get() - 1);
  }
}

/**
 * A write from a screen: busy while it runs (its buttons disabled, so a second tap cannot send it
 * again), the server's message when refused, `after` once it is done.
 */
/**
 * The back office writes straight to the network (no outbox: a manager's change refused must show at
 * once). With no network the browser's own words ("Failed to fetch") say nothing to a manager: the
 * screen says what happened and what to do; a save again is safe (its Idempotency-Key is the sheet's).
 */
export const NO_CONNECTION = 'No connection to the POS. Try again once it is back (nothing is done twice).';

/** What a failed write says on screen: the server's refusal, or that the network is gone. */
export const failure = (e: unknown): string => (e instanceof TypeError || !navigator.onLine ? NO_CONNECTION : e instanceof Error ? e.message : String(e));

export function useWrite() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (what: () => Promise<unknown>, after?: () => void): Promise<void> => {
    setBusy(true);
    setError('');
    try {
      await what();
      after?.();
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/**
 * A read kept fresh: asked again every `everyMs` with the ETag of the last answer, so an unchanged
 * floor costs a 304 and no rendering. `refresh` asks at once (after a write).
 */
export function usePolled<T>(read: (etag: string | undefined) => Promise<Answer<T>>, everyMs: number, deps: unknown[] = []): { data: T | undefined; status: number | undefined; refresh: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  // The last answer's status: undefined until the first arrives (loading), 404 for "there is none".
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const bump = () => setTick((n) => n + 1);
  const etag = useRef<string | undefined>(undefined);
  useEffect(() => {
    etag.current = undefined;
    setData(undefined);
    setStatus(undefined);
  }, deps);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const once = async () => {
      try {
        const { data: body, response } = await read(etag.current);
        if (stopped) return;
        if (response.status === 304) return;
        setStatus(response.status);
        if (response.ok) {
          etag.current = response.headers.get('etag') ?? undefined;
          setData(body);
        }
      } catch {
        // The banner says the network is away; the next turn asks again.
      } finally {
        if (!stopped) timer = setTimeout(once, everyMs);
      }
    };
    void once();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [tick, ...deps]);
  return { data, status, refresh: bump };
}

/** Headers of a conditional read. */
export const ifNoneMatch = (etag: string | undefined) => (etag ? { 'if-none-match': etag } : {});
