import type { Metric, Registry } from 'prom-client';

/** Upper bounds of the latency buckets, in seconds (Prometheus adds +Inf). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Tally {
  status: number;
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Per bucket (the last one +Inf), not cumulative: made cumulative at scrape time. */
  buckets: Float64Array;
}

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** What prom-client's registry reads from a metric when it renders or exports one. */
interface Family {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Sample[] }>;
  reset(): void;
}

// Kept: the registry reads only these members of a metric, but types it as prom-client's own classes
// (with private fields no object literal can have).
const register = (registry: Registry, family: Family) => registry.registerMetric(family as unknown as Metric);

/**
 * The answers of one route (method and pattern), bound when the route is added: recording one is a
 * few additions on the tally of its status, found without building a key or hashing a string.
 */
export class RouteAnswers {
  private readonly byStatus = new Map<number, Tally>();
  /** The tally of the last status recorded: a route answers the same status request after request. */
  private last: Tally | undefined;
  private readonly method: string;
  private readonly route: string;
  private readonly all: Tally[];

  constructor(
    method: string,
    route: string,
    all: Tally[],
  ) {
    this.method = method;
    this.route = route;
    this.all = all;
  }

  record(status: number, seconds: number): void {
    let tally = this.last;
    if (tally === undefined || tally.status !== status) {
      tally = this.byStatus.get(status);
      if (tally === undefined) {
        tally = { status, labels: { method: this.method, route: this.route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) };
        this.byStatus.set(status, tally);
        this.all.push(tally);
      }
      this.last = tally;
    }
    tally.count++;
    tally.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    tally.buckets[i]!++;
  }

  /** Forgets every answer (a registry reset). */
  clear(): void {
    this.byStatus.clear();
    this.last = undefined;
  }
}

/**
 * Every HTTP answer, by method, route pattern and status: its count and its latency histogram.
 *
 * prom-client's labelled `inc` and `observe` hash and validate a label object on every call: that cost
 * a tenth of a small GET. Each route gets its own `RouteAnswers` when it is added (`route`), so an
 * answer is counted with a few additions; the two Prometheus families
 * (`comanda_http_requests_total` and `comanda_http_request_duration_seconds`) are built from the
 * tallies only when the registry is scraped, in the text prom-client writes for its own counters and
 * histograms.
 */
export class AnsweredRequests {
  private readonly routes = new Map<string, RouteAnswers>();
  private readonly tallies: Tally[] = [];

  constructor(registry: Registry) {
    register(registry, this.family('comanda_http_requests_total', 'HTTP requests answered, by route pattern and status', 'counter', (t, name) => [{ labels: t.labels, value: t.count, metricName: name }]));
    register(registry, this.family('comanda_http_request_duration_seconds', 'Time to answer an HTTP request, by route pattern', 'histogram', (t, name) => {
      const samples: Sample[] = [];
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += t.buckets[i]!;
        samples.push({ labels: { le, ...t.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      samples.push({ labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${name}_bucket` });
      samples.push({ labels: t.labels, value: t.sum, metricName: `${name}_sum` });
      samples.push({ labels: t.labels, value: t.count, metricName: `${name}_count` });
      return samples;
    }));
  }

  /** The answers of one route (the same object for the same method and pattern). */
  route(method: string, route: string): RouteAnswers {
    const key = `${method} ${route}`;
    let answers = this.routes.get(key);
    if (answers === undefined) this.routes.set(key, (answers = new RouteAnswers(method, route, this.tallies)));
    return answers;
  }

  /** One answer of a route not bound beforehand (what no route matched). */
  record(method: string, route: string, status: number, seconds: number): void {
    this.route(method, route).record(status, seconds);
  }

  private family(name: string, help: string, type: Family['type'], samples: (t: Tally, name: string) => Sample[]): Family {
    return {
      name, help, type, aggregator: 'sum',
      get: async () => {
        return { name, help, type, aggregator: 'sum', values: this.tallies.flatMap((t) => samples(t, name)) };
      },
      reset: () => {
        for (const answers of this.routes.values()) answers.clear();
        this.tallies.length = 0;
      },
    };
  }
}
