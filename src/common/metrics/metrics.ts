import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The label of a request no route took (a 404, 405 or 501 of the unserved-operations hook). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The Prometheus text format (0.0.4), what every scraper reads. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** Request latency buckets, in seconds: a read takes about a millisecond, a question seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The process's own metrics (CPU, memory, heap, event-loop lag, GC): prom-client's defaults,
 * collected once per process. They belong to the process, not to an app: an in-process restart
 * makes a new app, and each registration starts an event-loop monitor and a GC observer that
 * nothing stops.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** prom-client's children of one method and route: its latency, and its counter per status. */
interface RouteSeries {
  latency: { observe(seconds: number): void };
  byStatus: Map<number, { inc(): void }>;
}

/**
 * The Prometheus metrics of one app (prom-client): what the HTTP hooks count per request
 * (configure-app.ts), and gauges the modules' state is read into when scraped (the operations
 * module). Counting a request is two lookups and additions, never I/O: the figures are
 * computed when GET /metrics asks for them.
 */
@Injectable()
export class Metrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'trove_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'trove_http_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /**
   * The children by route and method, made once per series: counting a request through a label
   * object (`inc({method, route, status})`) allocated that object and a closure every time, and
   * the garbage cost a read 5% (docs/PERFORMANCE.md). Bounded like the series themselves.
   */
  private readonly series = new Map<string, Map<string, RouteSeries>>();

  constructor() {
    processMetrics();
  }

  /** One answered request: `route` is its route template (`/asset/:asset`) or UNMATCHED_ROUTE, never the path itself. */
  countRequest(method: string, route: string, status: number, elapsedMs: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) byMethod.set(method, (series = { latency: this.latency.labels(method, route), byStatus: new Map() }));
    let counter = series.byStatus.get(status);
    if (!counter) series.byStatus.set(status, (counter = this.requests.labels(method, route, String(status))));
    counter.inc();
    series.latency.observe(elapsedMs / 1000);
  }

  /** A gauge read from `read` at each scrape. */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** A gauge with one label, its series read from `read` at each scrape (a series no longer read is dropped). */
  gaugeBy(name: string, help: string, label: string, read: () => Iterable<[string, number]>): void {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [value, count] of read()) this.set({ [label]: value }, count);
      },
    });
  }

  /** The Prometheus text exposition of the process's and this app's metrics. */
  exposition(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }
}
