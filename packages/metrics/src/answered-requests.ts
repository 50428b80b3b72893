import type { Metric, Registry } from 'prom-client';

/** Upper bounds of the latency buckets, in seconds (Prometheus adds +Inf). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Answers queued before they are tallied (a few kB). */
const BATCH = 256;

interface Tally {
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

// The registry reads only these members of a metric (prom-client's own classes have more).
const register = (registry: Registry, family: Family) => registry.registerMetric(family as unknown as Metric);

/**
 * Every HTTP answer, by method, route pattern and status: its count and its latency histogram.
 *
 * Recorded on the request path, so recording is a push (tallied in batches: a Map lookup by one string
 * and a few additions each).
 * prom-client's labelled `inc` and `observe` hash and validate a label object on every call: that cost
 * a tenth of a small GET. The two Prometheus families (`comanda_http_requests_total` and
 * `comanda_http_request_duration_seconds`) are built from the tallies only when the registry is
 * scraped, in the text prom-client writes for its own counters and histograms.
 */
export class AnsweredRequests {
  private readonly tallies = new Map<string, Tally>();

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

  /** Answers not yet tallied, four fields each: tallied in batches (see `record`). */
  private pending: Array<string | number> = [];

  /**
   * Queues the answer; the queue is tallied every `BATCH` answers and before a scrape. Tallying on the
   * request path ran on cold caches between two requests; a batch tallies in one tight loop.
   */
  record(method: string, route: string, status: number, seconds: number): void {
    this.pending.push(method, route, status, seconds);
    if (this.pending.length >= BATCH * 4) this.tallyPending();
  }

  private tallyPending(): void {
    const p = this.pending;
    this.pending = [];
    for (let i = 0; i < p.length; i += 4) this.tally(p[i] as string, p[i + 1] as string, p[i + 2] as number, p[i + 3] as number);
  }

  private tally(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) }));
    tally.count++;
    tally.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    tally.buckets[i]!++;
  }

  private family(name: string, help: string, type: Family['type'], samples: (t: Tally, name: string) => Sample[]): Family {
    return {
      name, help, type, aggregator: 'sum',
      get: async () => {
        this.tallyPending();
        return { name, help, type, aggregator: 'sum', values: [...this.tallies.values()].flatMap((t) => samples(t, name)) };
      },
      reset: () => {
        this.pending = [];
        this.tallies.clear();
      },
    };
  }
}
