import { hostname } from 'node:os';
import { PLATFORM_TENANT } from '@console/contract';
import type { FastifyRequest } from 'fastify';
import { type Db, inTenant, schema } from './db/index.js';
import { nextId } from './ids.js';

const SENSITIVE = /pass|secret|token|key|authorization|captcha/i;
const MAX_PARAMS = 4000;

/** Copies a request's parameters for the log, with every sensitive value masked. */
export function maskParams(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskParams(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) ? '******' : maskParams(v, depth + 1);
  return out;
}

function paramsOf(req: FastifyRequest): string {
  const text = JSON.stringify(maskParams({ query: req.query ?? {}, body: req.body ?? null })) ?? '';
  return text.length > MAX_PARAMS ? `${text.slice(0, MAX_PARAMS)}…` : text;
}

function requestColumns(req: FastifyRequest) {
  return {
    id: nextId(),
    tenantId: req.user?.tenantId ?? PLATFORM_TENANT,
    serviceId: 'iot-console',
    serverHost: hostname(),
    serverIp: `${req.socket.localAddress ?? ''}:${req.socket.localPort ?? ''}`,
    env: process.env.NODE_ENV ?? 'production',
    method: req.method,
    requestUri: req.url.split('?')[0]?.slice(0, 2000),
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 1000),
    remoteIp: req.ip,
    methodClass: req.routeOptions.url ?? null,
    createBy: req.user?.account ?? null,
  };
}

export interface WebErrorInput {
  type?: string;
  message?: string;
  stack?: string;
  info?: string;
  url?: string;
  time?: string;
}

/**
 * Writes the usual / api / error logs. Writes are queued off the request path; close() waits for them,
 * so a graceful shutdown loses nothing.
 */
export class Logs {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly db: Db, private readonly onFailure: (e: unknown) => void) {}

  private track(tenantId: string, write: (tx: Parameters<Parameters<typeof inTenant>[2]>[0]) => Promise<unknown>): void {
    const p = inTenant(this.db, { tenantId }, write)
      .catch(this.onFailure)
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  api(req: FastifyRequest, status: number, title: string | undefined): void {
    const row = {
      ...requestColumns(req),
      type: status < 400 ? '1' : '2',
      title: title ?? null,
      status,
      params: paramsOf(req),
      time: Math.round(performance.now() - req.startTime),
    };
    this.track(row.tenantId, (tx) => tx.insert(schema.logApi).values(row));
  }

  error(req: FastifyRequest, err: Error): void {
    const frame = /\(?([^()\s]+):(\d+):\d+\)?/.exec(err.stack?.split('\n')[1] ?? '');
    const row = {
      ...requestColumns(req),
      type: 'server',
      params: paramsOf(req),
      stackTrace: err.stack?.slice(0, 20000) ?? null,
      exceptionName: err.name,
      message: err.message.slice(0, 4000),
      fileName: frame?.[1]?.slice(0, 1000) ?? null,
      lineNumber: frame ? Number(frame[2]) : null,
      time: Math.round(performance.now() - req.startTime),
    };
    this.track(row.tenantId, (tx) => tx.insert(schema.logError).values(row));
  }

  /** Front-end error records posted by the console. */
  async webErrors(req: FastifyRequest, records: WebErrorInput[]): Promise<number> {
    const base = requestColumns(req);
    const rows = records.map((r) => ({
      ...base,
      id: nextId(),
      type: 'web',
      requestUri: (r.url ?? '').slice(0, 2000),
      message: (r.message ?? '').slice(0, 4000),
      stackTrace: (r.stack ?? '').slice(0, 20000) || null,
      exceptionName: (r.type ?? 'error').slice(0, 255),
      params: r.info ? r.info.slice(0, MAX_PARAMS) : null,
    }));
    if (rows.length) await inTenant(this.db, { tenantId: base.tenantId }, (tx) => tx.insert(schema.logError).values(rows));
    return rows.length;
  }

  usual(req: FastifyRequest, tenantId: string, level: string, logId: string, data: string, account?: string): void {
    const row = {
      ...requestColumns(req),
      tenantId,
      createBy: account ?? req.user?.account ?? null,
      logLevel: level,
      logId,
      logData: data.slice(0, 4000),
      params: null,
    };
    this.track(tenantId, (tx) => tx.insert(schema.logUsual).values(row));
  }

  async flush(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
