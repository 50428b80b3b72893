/**
 * A dinner's traffic profile: what the recorder (test/src/traffic-recorder.ts) captured during the e2e
 * dinner, reduced to what a replay needs: per kind of client, each kind of request's rate per client
 * and minute, its headers (If-None-Match, If-Match, Idempotency-Key, a manager's approval), how it was
 * answered, and the order the writes came in, client by client.
 */
export type ClientKind = 'tablet' | 'kitchen-screen' | 'manager';

/** One request as it left a page and came back. */
export interface RecordedRequest {
  client: ClientKind;
  who: string;
  /** ms since the recorder started. */
  at: number;
  method: string;
  /** The route's pattern as Fastify has it (`/orders/:id`), or `static` (pages, scripts, styles). */
  route: string;
  path: string;
  /** DevTools' resource type: Fetch, EventSource, Document, Script… */
  type: string;
  query: string[];
  ifNoneMatch: boolean;
  ifMatch: boolean;
  idempotencyKey: boolean;
  approval: boolean;
  accept: string | null;
  status: number | null;
  /** From sending the request to its answer's headers, as Chromium timed it. */
  ms: number | null;
  fromCache: boolean;
  failed?: string;
}

/** A poll asks again on a timer; a read once; a write changes something; a stream stays open (SSE). */
export type Role = 'poll' | 'read' | 'write' | 'stream' | 'session';

export interface KindProfile {
  /** `GET /orders/:id/complete`, `GET /tables?all`: method, route, query keys. */
  kind: string;
  method: string;
  route: string;
  query: string[];
  role: Role;
  /** The values a route's parameter took that are not ids (`status`: pending, preparing, ready). */
  values?: Record<string, string[]>;
  /** How many the recorded clients of this kind sent in all. */
  count: number;
  /** Per client and minute of the client's time on the screens. */
  perMinute: number;
  /** For a poll: the median time between two of one client to one URL, in s. */
  everyS?: number;
  /** Shares of the requests that carried each header. */
  ifNoneMatch: number;
  ifMatch: number;
  idempotencyKey: number;
  approval: number;
  accept: string | null;
  statuses: Record<string, number>;
  /** As Chromium timed them during the recording (a loaded test machine): for orientation only. */
  p50Ms: number | null;
}

export interface ClientProfile {
  clients: string[];
  /** Minutes the clients were on the screens, summed (each from its first request to the recording's end). */
  minutes: number;
  kinds: KindProfile[];
  /**
   * Per recorded client: every request but the polls, in order: its time in s since the client's first,
   * its kind, its status, and 1 when it carried a manager's approval.
   */
  sequences: Record<string, Step[]>;
  /** Pages, scripts and styles loaded (served by the standalone, not replayed). */
  staticLoads: number;
}

export interface TrafficProfile {
  how: string;
  recordedSeconds: number;
  requests: number;
  fromBrowserCache: number;
  clients: Partial<Record<ClientKind, ClientProfile>>;
}

export type Step = [at: number, kind: string, status: number | null, approval: 0 | 1];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The values each parameter of the route took in these requests, where they are words and not ids. */
function valuesOf(xs: RecordedRequest[]): Record<string, string[]> | undefined {
  const values: Record<string, Set<string>> = {};
  for (const r of xs) {
    const segments = r.path.split('/');
    r.route.split('/').forEach((part, i) => {
      if (part.startsWith(':') && segments[i] && !UUID.test(segments[i]!)) (values[part.slice(1)] ??= new Set()).add(decodeURIComponent(segments[i]!));
    });
  }
  const words = Object.entries(values).map(([name, set]) => [name, [...set].sort()] as const);
  return words.length ? Object.fromEntries(words) : undefined;
}

export const kindOf = (r: { method: string; route: string; query: string[] }) => `${r.method} ${r.route}${r.query.length ? `?${r.query.join('&')}` : ''}`;

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null);
const share = (xs: RecordedRequest[], pick: (r: RecordedRequest) => boolean) => Math.round((100 * xs.filter(pick).length) / Math.max(1, xs.length)) / 100;
const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

function roleOf(sample: RecordedRequest, perClient: number[], everyS: number | null): Role {
  if (sample.type === 'EventSource') return 'stream';
  if (sample.route.startsWith('/auth/')) return 'session';
  if (sample.method !== 'GET') return 'write';
  // Asked again and again by one client on a timer: a poll (with its ETag or without, as /shifts/current).
  return (median(perClient) ?? 0) >= 4 && everyS !== null && everyS <= 15 ? 'poll' : 'read';
}

/**
 * The profile as written, to be read by people too: a kind of request on one line, a step on one line
 * (every list of plain values, and every object from a kind down, on one line).
 */
export function profileText(profile: TrafficProfile): string {
  const write = (value: unknown, depth: number): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
    if (entries.every(([, v]) => v === null || typeof v !== 'object') || (!Array.isArray(value) && depth >= 4)) {
      return JSON.stringify(value).replace(/,(?=["[{\d-]|null|true|false)/g, ', ').replace(/":/g, '": ');
    }
    const pad = ' '.repeat(depth + 1);
    const items = entries.map(([k, v]) => `${pad}${Array.isArray(value) ? '' : `${JSON.stringify(k)}: `}${write(v, depth + 1)}`);
    return Array.isArray(value) ? `[\n${items.join(',\n')}\n${' '.repeat(depth)}]` : `{\n${items.join(',\n')}\n${' '.repeat(depth)}}`;
  };
  return `${write(profile, 0)}\n`;
}

/** The profile of a recording: `how` says how it was made (the command, the build). */
export function profileOf(all: RecordedRequest[], how: string): TrafficProfile {
  const seen = all.filter((r) => !r.fromCache && r.method !== '');
  const end = Math.max(...seen.map((r) => r.at));
  const clients: TrafficProfile['clients'] = {};
  for (const client of ['tablet', 'kitchen-screen', 'manager'] as const) {
    const mine = seen.filter((r) => r.client === client);
    if (mine.length === 0) continue;
    const names = [...new Set(mine.map((r) => r.who))];
    const firstOf = new Map(names.map((w) => [w, Math.min(...mine.filter((r) => r.who === w).map((r) => r.at))]));
    const minutes = names.reduce((sum, w) => sum + (end - firstOf.get(w)!) / 60_000, 0);
    const api = mine.filter((r) => r.route !== 'static');
    const byKind = new Map<string, RecordedRequest[]>();
    for (const r of api) byKind.set(kindOf(r), [...(byKind.get(kindOf(r)) ?? []), r]);
    const kinds: KindProfile[] = [...byKind].map(([kind, xs]) => {
      const perClient = names.map((w) => xs.filter((r) => r.who === w).length).filter((n) => n > 0);
      const gaps = [...new Set(xs.map((r) => `${r.who} ${r.path}`))].flatMap((one) =>
        xs.filter((r) => `${r.who} ${r.path}` === one).map((r) => r.at).flatMap((at, i, ats) => (i ? [(at - ats[i - 1]!) / 1000] : [])));
      const everyS = median(gaps);
      const sample = xs[0]!;
      const role = roleOf(sample, perClient, everyS);
      const statuses: Record<string, number> = {};
      for (const r of xs) statuses[String(r.status ?? r.failed ?? 'none')] = (statuses[String(r.status ?? r.failed ?? 'none')] ?? 0) + 1;
      const accepts = xs.map((r) => r.accept ?? '');
      const accept = accepts.sort((a, b) => accepts.filter((x) => x === b).length - accepts.filter((x) => x === a).length)[0] || null;
      const times = xs.flatMap((r) => (r.ms === null || role === 'stream' ? [] : [r.ms]));
      return {
        kind, method: sample.method, route: sample.route, query: sample.query, role, ...(valuesOf(xs) ? { values: valuesOf(xs) } : {}), count: xs.length, perMinute: round(xs.length / minutes),
        ...(role === 'poll' && everyS !== null ? { everyS: round(everyS, 1) } : {}),
        ifNoneMatch: share(xs, (r) => r.ifNoneMatch), ifMatch: share(xs, (r) => r.ifMatch), idempotencyKey: share(xs, (r) => r.idempotencyKey), approval: share(xs, (r) => r.approval),
        accept, statuses, p50Ms: median(times) === null ? null : round(median(times)!, 1),
      };
    });
    kinds.sort((a, b) => b.count - a.count);
    const polls = new Set(kinds.filter((k) => k.role === 'poll').map((k) => k.kind));
    const sequences = Object.fromEntries(names.map((w) => [w, api.filter((r) => r.who === w && !polls.has(kindOf(r)))
      .map((r): Step => [round((r.at - firstOf.get(w)!) / 1000, 1), kindOf(r), r.status, r.approval ? 1 : 0])]));
    clients[client] = { clients: names, minutes: round(minutes), kinds, sequences, staticLoads: mine.length - api.length };
  }
  return { how, recordedSeconds: round(end / 1000, 1), requests: seen.length, fromBrowserCache: all.length - seen.length, clients };
}
