import { createHash } from 'node:crypto';
import { CONSOLE_CLIENT, type R, type TokenResponse } from '@console/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../src/core/auth/index.js';
import { type Config, loadConfig } from '../src/core/config.js';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { createServer, type Server, type ServerOptions } from '../src/server.js';
import { AREAS } from '../src/areas/index.js';
import type { AreaManifest } from '../src/core/area.js';
import { createTestDb, type TestDb } from './db-template.js';

export const BASIC = `Basic ${Buffer.from(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`).toString('base64')}`;
export const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export interface CallOptions {
  token?: string;
  query?: Record<string, string | number>;
  body?: unknown;
  lang?: 'zh' | 'en';
  headers?: Record<string, string>;
  /** omit the client Basic header */
  noClient?: boolean;
}

export interface Harness {
  server: Server;
  call<T = unknown>(method: 'GET' | 'POST', url: string, opts?: CallOptions): Promise<{ status: number; body: R<T>; raw: LightMyRequestResponse }>;
  login(tenantId: string, username: string, password: string, headers?: Record<string, string>): Promise<TokenResponse>;
  tokenRequest(query: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** stops the server and starts another on the same database (what a restart keeps) */
  restart(): Promise<void>;
  /** creates a user in a tenant holding the roles with these aliases */
  createUser(tenantId: string, account: string, password: string, roleAliases: string[], extra?: Partial<typeof schema.user.$inferInsert>): Promise<string>;
}

/** Starts a server on a fresh copy of the seeded database for the test file, and stops it afterwards. */
/**
 * Adds an area of this test file's own to the server's registry, for the servers this file starts (call it before
 * `useServer`); taken out again after the file, so that the next file a worker runs does not have it.
 */
export function addTestArea(area: AreaManifest): void {
  (AREAS as AreaManifest[]).push(area);
  afterAll(() => {
    const at = AREAS.indexOf(area);
    if (at >= 0) (AREAS as AreaManifest[]).splice(at, 1);
  });
}

export function useServer(env: Record<string, string> = {}, overrides: Partial<Config> = {}, options: ServerOptions = {}): Harness {
  let db: TestDb;
  let config: Config;
  const h = {} as Harness;
  beforeAll(async () => {
    db = await createTestDb();
    config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: process.env.REDIS_URL ?? '', REDIS_PREFIX: `console-test:${nextId()}:`, ...env },
      { dataDir: db.dataDir, ...overrides },
    );
    h.server = await createServer(config, options);
  });
  afterAll(async () => {
    await h.server?.close();
    await db?.dispose();
  });

  h.restart = async () => {
    await h.server.close();
    h.server = await createServer(config, options);
  };
  attachCalls(h);
  return h;
}

/** the calls of a harness, on whatever server `h.server` is when they run */
export function attachCalls(h: Harness): void {
  h.call = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (!opts.noClient) headers.authorization = BASIC;
    if (opts.token) headers['blade-auth'] = `bearer ${opts.token}`;
    if (opts.lang) headers['accept-language'] = opts.lang;
    const raw = await h.server.app.inject({
      method,
      url,
      query: opts.query ? Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)])) : undefined,
      headers,
      ...(opts.body === undefined ? {} : typeof opts.body === 'string' ? { payload: opts.body } : { payload: opts.body as object }),
    });
    return { status: raw.statusCode, body: raw.json(), raw };
  };

  h.tokenRequest = (query, headers = {}) =>
    h.server.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', query, headers: { authorization: BASIC, ...headers } });

  h.login = async (tenantId, username, password, headers = {}) => {
    const res = await h.tokenRequest(
      { grant_type: 'password', tenantId, username, password: md5(password), scope: 'all', type: 'account' },
      { 'tenant-id': tenantId, ...headers },
    );
    if (res.statusCode !== 200) throw new Error(`login ${tenantId}/${username} failed: ${res.body}`);
    return res.json() as TokenResponse;
  };

  h.createUser = async (tenantId, account, password, roleAliases, extra = {}) => {
    const id = nextId();
    const hash = await hashPassword(md5(password));
    await inTenant(h.server.ctx.db, { tenantId }, async (tx) => {
      const roles = await tx.select().from(schema.role);
      const roleIds = roles.filter((r) => roleAliases.includes(r.roleAlias)).map((r) => r.id);
      const [dept] = await tx.select().from(schema.dept);
      await tx.insert(schema.user).values({
        id, tenantId, account, passwordHash: hash, realName: account, roleId: roleIds.join(','), deptId: dept?.id ?? '', ...extra,
      });
    });
    return id;
  };
}
