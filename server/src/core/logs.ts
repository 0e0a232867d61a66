import { hostname } from 'node:os';
import { PLATFORM_TENANT } from '@console/contract';
import type { FastifyRequest } from 'fastify';
import { type Db, inTenant, schema } from './db/index.js';
import { nextId } from './ids.js';
import { maskParams, redactUrl } from './redact.js';

const MAX_PARAMS = 4000;

/** A request's parameters for the log, every credential masked (never throws, whatever the body). */
function paramsOf(req: FastifyRequest): string {
  try {
    const path = req.url.split('?')[0] ?? '';
    const text = JSON.stringify(maskParams({ query: req.query ?? {}, body: req.body ?? null }, path)) ?? '';
    return text.length > MAX_PARAMS ? `${text.slice(0, MAX_PARAMS)}…` : text;
  } catch {
    return '';
  }
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
    this.safely(() => this.apiRow(req, status, title));
  }

  error(req: FastifyRequest, err: Error): void {
    this.safely(() => this.errorRow(req, err));
  }

  usual(req: FastifyRequest, tenantId: string, level: string, logId: string, data: string, account?: string): void {
    this.safely(() => this.usualRow(req, tenantId, level, logId, data, account));
  }

  /** A log write must never fail the request it records. */
  private safely(write: () => void): void {
    try {
      write();
    } catch (e) {
      this.onFailure(e);
    }
  }

  private apiRow(req: FastifyRequest, status: number, title: string | undefined): void {
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

  private errorRow(req: FastifyRequest, err: Error): void {
    const frame = /\(?([^()\s]+):(\d+):\d+\)?/.exec(err.stack?.split('\n')[1] ?? '');
    const row = {
      ...requestColumns(req),
      type: 'server',
      params: paramsOf(req),
      stackTrace: err.stack?.slice(0, 20000) ?? null,
      exceptionName: err.name,
      message: String(err.message ?? '').slice(0, 4000),
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
      requestUri: redactUrl(r.url ?? '').slice(0, 2000),
      message: (r.message ?? '').slice(0, 4000),
      stackTrace: (r.stack ?? '').slice(0, 20000) || null,
      exceptionName: (r.type ?? 'error').slice(0, 255),
      params: r.info ? r.info.slice(0, MAX_PARAMS) : null,
    }));
    if (rows.length) await inTenant(this.db, { tenantId: base.tenantId }, (tx) => tx.insert(schema.logError).values(rows));
    return rows.length;
  }

  private usualRow(req: FastifyRequest, tenantId: string, level: string, logId: string, data: string, account?: string): void {
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
