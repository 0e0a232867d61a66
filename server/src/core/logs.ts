import { hostname } from 'node:os';
import { type I18nText, type Lang, type MessageKey, type MessageRef, msg, msgOf, PLATFORM_TENANT, t } from '@console/contract';
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
    tenantId: req.user?.tenantId ?? req.appUser?.tenantId ?? PLATFORM_TENANT,
    serviceId: 'iot-console',
    serverHost: hostname(),
    serverIp: `${req.socket.localAddress ?? ''}:${req.socket.localPort ?? ''}`,
    env: process.env.NODE_ENV ?? 'production',
    method: req.method,
    requestUri: req.url.split('?')[0]?.slice(0, 2000),
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 1000),
    remoteIp: req.ip,
    methodClass: req.routeOptions.url ?? null,
    createBy: req.user?.account ?? (req.appUser ? `app:${req.appUser.phone}` : null),
  };
}

/** The API log's title of an engine call on a resource (`logTitleSubmit`: "用户管理: 保存"). */
export function logTitle(key: MessageKey, subject: I18nText): I18nText {
  return { zh: msg(key, 'zh', { title: subject.zh }), en: msg(key, 'en', { title: subject.en }) };
}

export interface WebErrorInput {
  type?: string;
  message?: string;
  stack?: string;
  info?: string;
  url?: string;
  time?: string;
}

type LogTable = typeof schema.logApi | typeof schema.logError | typeof schema.logUsual;
type LogRow = Record<string, unknown> & { tenantId: string };

/** Rows wait at most this long, and a write carries at most this many of them. */
const FLUSH_MS = 50;
const BATCH_ROWS = 500;
/** Beyond this many waiting rows (the database is down or far behind), new rows are counted, not kept. */
const MAX_WAITING = 20_000;

/**
 * Writes the usual / api / error logs off the request path, in batches: one statement per table and
 * tenant every FLUSH_MS, so a burst of requests (a flood of refused sign-ins) costs a few inserts rather
 * than a transaction each, and never takes the pool from the requests themselves. flush() (at close)
 * writes what waits, so a graceful shutdown loses nothing.
 */
export class Logs {
  private readonly waiting = new Map<LogTable, LogRow[]>();
  private size = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db, private readonly onFailure: (e: unknown) => void) {}

  private track(table: LogTable, row: LogRow): void {
    if (this.size >= MAX_WAITING) {
      this.dropped++;
      return;
    }
    const rows = this.waiting.get(table) ?? [];
    rows.push(row);
    this.waiting.set(table, rows);
    this.size++;
    if (this.size >= BATCH_ROWS) this.schedule(0);
    else this.schedule(FLUSH_MS);
  }

  private schedule(ms: number): void {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, ms);
    this.timer.unref?.();
  }

  /** Writes everything waiting now, after any write already under way (writes never overlap). */
  private write(): Promise<void> {
    const batches = [...this.waiting];
    this.waiting.clear();
    this.size = 0;
    const dropped = this.dropped;
    this.dropped = 0;
    this.writing = this.writing.then(async () => {
      if (dropped) this.onFailure(new Error(`log rows dropped while the database was behind: ${dropped}`));
      for (const [table, rows] of batches) {
        const byTenant = new Map<string, LogRow[]>();
        for (const r of rows) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r]);
        for (const [tenantId, group] of byTenant) {
          for (let i = 0; i < group.length; i += BATCH_ROWS) {
            const chunk = group.slice(i, i + BATCH_ROWS);
            await inTenant(this.db, { tenantId }, (tx) => tx.insert(table).values(chunk as never)).catch(this.onFailure);
          }
        }
      }
    });
    return this.writing;
  }

  /** the API log's titles by route (`GET /api/…`), so a row is titled in its reader's language */
  private readonly routeTitles = new Map<string, I18nText>();

  /** a route's title, for the API log (the app registers every route that has one) */
  titleRoute(methods: string | string[], url: string, title: I18nText): void {
    for (const method of Array.isArray(methods) ? methods : [methods]) this.routeTitles.set(`${method} ${url}`, title);
  }

  /** the title of an API log row's route in `lang`; undefined for a route this build does not have */
  routeTitle(method: string, route: string, lang: Lang): string | undefined {
    const title = this.routeTitles.get(`${method} ${route}`);
    return title && t(title, lang);
  }

  api(req: FastifyRequest, status: number, title: I18nText | undefined): void {
    this.safely(() => this.apiRow(req, status, title));
  }

  error(req: FastifyRequest, err: Error): void {
    this.safely(() => this.errorRow(req, err));
  }

  /** an event: its message is kept (shown in the reader's language) and written out in Chinese for BladeX's readers */
  usual(req: FastifyRequest, tenantId: string, level: string, logId: string, message: MessageRef, account?: string): void {
    this.safely(() => this.usualRow(req, tenantId, level, logId, message, account));
  }

  /** A log write must never fail the request it records. */
  private safely(write: () => void): void {
    try {
      write();
    } catch (e) {
      this.onFailure(e);
    }
  }

  private apiRow(req: FastifyRequest, status: number, title: I18nText | undefined): void {
    const row = {
      ...requestColumns(req),
      type: status < 400 ? '1' : '2',
      title: title ? t(title, 'zh').slice(0, 255) : null,
      status,
      params: paramsOf(req),
      time: Math.round(performance.now() - req.startTime),
    };
    this.track(schema.logApi, row);
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
    this.track(schema.logError, row);
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

  private usualRow(req: FastifyRequest, tenantId: string, level: string, logId: string, message: MessageRef, account?: string): void {
    const row = {
      ...requestColumns(req),
      tenantId,
      createBy: account ?? req.user?.account ?? null,
      logLevel: level,
      logId,
      logData: msgOf(message, 'zh').slice(0, 4000),
      message,
      params: null,
    };
    this.track(schema.logUsual, row);
  }

  /** Writes every row that waits (tests, and a graceful shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.write();
  }
}
