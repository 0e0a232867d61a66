import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { failure } from '../envelope.js';
import { msg } from '@console/contract';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Spec<L extends string> { name: string; help: string; labelNames?: readonly L[] }

/**
 * The process's Prometheus metrics (prom-client), one registry per server: the HTTP requests by route, the
 * process's own (memory, event loop, GC), and what core and the areas register (the pool, the job queues, the
 * device messages, the workflow steps). A metric is made once by name: asking again answers the same one.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly made = new Map<string, Counter<string> | Gauge<string> | Histogram<string>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(spec: Spec<L>): Counter<L> {
    return this.once(spec.name, () => new Counter({ ...spec, labelNames: spec.labelNames ?? [], registers: [this.registry] })) as Counter<L>;
  }

  /** `collect` sets the gauge's values when metrics are read */
  gauge<L extends string>(spec: Spec<L> & { collect?: (g: Gauge<L>) => void }): Gauge<L> {
    const { collect, ...rest } = spec;
    return this.once(spec.name, () => new Gauge<L>({
      ...rest, labelNames: rest.labelNames ?? [], registers: [this.registry],
      ...(collect ? { collect(this: Gauge<L>) { collect(this); } } : {}),
    })) as Gauge<L>;
  }

  histogram<L extends string>(spec: Spec<L> & { buckets?: number[] }): Histogram<L> {
    return this.once(spec.name, () => new Histogram({ ...spec, labelNames: spec.labelNames ?? [], buckets: spec.buckets ?? LATENCY_BUCKETS, registers: [this.registry] })) as Histogram<L>;
  }

  private once<T extends Counter<string> | Gauge<string> | Histogram<string>>(name: string, make: () => T): T {
    const had = this.made.get(name);
    if (had) return had as T;
    const metric = make();
    this.made.set(name, metric);
    return metric;
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Counts and times every request by its route's pattern (an unknown path is `unmatched`, so a scan cannot grow
 * the series), and serves `/metrics` to a scraper holding `METRICS_TOKEN`; without the setting it is off.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const requests = metrics.counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route and status', labelNames: ['method', 'route', 'status'] as const });
  const latency = metrics.histogram({ name: 'http_request_duration_seconds', help: 'HTTP request time to the answer, by route', labelNames: ['method', 'route'] as const });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { access: { public: true, ownBudget: true } }, schema: { hide: true } }, async (req, reply) => {
    if (!token) return reply.code(404).send(failure(404, msg('metricsOff', req.lang)));
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(given, token)) return reply.code(401).header('www-authenticate', 'Bearer').send(failure(401, msg('unauthorized', req.lang)));
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics());
  });
}
