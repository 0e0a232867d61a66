/**
 * What is measured: the list endpoint over HTTP, the same SQL run directly, and the start time and idle
 * memory of the built server.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as netServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSOLE_CLIENT } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { type Db, inTenant } from '@console/server/src/core/db/index.js';
import { type CountLimits, scopeList } from '@console/server/src/core/resource/count.js';
import { buildFilters, buildOrder, type ColumnMap } from '@console/server/src/core/resource/filters.js';
import { eq, getTableColumns } from 'drizzle-orm';
import { BENCH_TENANT, FILTER_WORD, RANGE } from './seed.js';
import { notice } from '@console/server/src/areas/desk/tables.js';

export const LIST_PATH = '/api/blade-desk/notice/list';
export const BASIC = `Basic ${Buffer.from(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`).toString('base64')}`;

export interface Case {
  name: string;
  query: Record<string, string>;
  /** the term matches fewer rows than a page: the answer holds min(size, total) records, not a full page */
  few?: boolean;
}

export const CASES: Case[] = [
  { name: 'page 1', query: { current: '1', size: '10' } },
  { name: `title "${FILTER_WORD}"`, query: { current: '1', size: '10', title: FILTER_WORD } },
  { name: `createTime ${RANGE.from} … ${RANGE.to}`, query: { current: '1', size: '10', createTime_datege: RANGE.from, createTime_datele: RANGE.to } },
  { name: 'page 1000', query: { current: '1000', size: '10' } },
];

/**
 * Substring searches of 1–4 characters (bench/RESULTS.md, "Short search terms"). Frequencies in the seeded
 * titles: 锁 and 固件 are in a word of the word list (~20% / ~10% of titles), 】关 and 】关于 only where a
 * title starting with 关于 got the 【Recall】 prefix (~0.036%), 】关于设 ~0.001%, 张, 召回 and 召回通知 in none.
 */
export const SEARCH_CASES: Case[] = [
  { name: '1 char, no match', query: { current: '1', size: '10', title: '张' }, few: true },
  { name: '1 char, frequent', query: { current: '1', size: '10', title: '锁' } },
  { name: '1 char Latin, no match', query: { current: '1', size: '10', title: 'Q' }, few: true },
  { name: '2 chars, no match', query: { current: '1', size: '10', title: '召回' }, few: true },
  { name: '2 chars, ~360 matches', query: { current: '1', size: '10', title: '】关' } },
  { name: '2 chars, frequent', query: { current: '1', size: '10', title: '固件' } },
  { name: '2 chars Latin, mixed case', query: { current: '1', size: '10', title: 'oT' } },
  { name: '3 chars, no match', query: { current: '1', size: '10', title: '召回令' }, few: true },
  { name: '3 chars, ~360 matches', query: { current: '1', size: '10', title: '】关于' } },
  { name: '3 chars, frequent', query: { current: '1', size: '10', title: '智能锁' } },
  { name: '4 chars, no match', query: { current: '1', size: '10', title: '召回通知' }, few: true },
  { name: '4 chars, ~10 matches', query: { current: '1', size: '10', title: '】关于设' }, few: true },
];

// ---------- statistics ----------

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) throw new Error('no samples');
  const median = n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  return { median, p95: s[Math.ceil(0.95 * n) - 1]!, min: s[0]!, max: s[n - 1]! };
}

/** Runs fn `warmup` times untimed, then `calls` times one after the other, timing each call (ms). */
export async function sample(calls: number, warmup: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

// ---------- the API ----------

export async function signIn(base: string, tenantId = BENCH_TENANT): Promise<string> {
  const params = new URLSearchParams({
    grant_type: 'password', tenantId, username: 'admin', password: createHash('md5').update('admin').digest('hex'), scope: 'all', type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': tenantId } });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** One list call over HTTP; answers the total, and fails on anything but a full page. */
export function apiCall(base: string, token: string, c: Case): () => Promise<number> {
  const url = `${base}${LIST_PATH}?${new URLSearchParams(c.query)}`;
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  return async () => {
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { code: number; data?: { total: number; records: unknown[] } };
    if (res.status !== 200 || body.code !== 200 || !body.data) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    const expected = c.few ? Math.min(Number(c.query.size), body.data.total) : Number(c.query.size);
    if (body.data.records.length !== expected) throw new Error(`${c.name}: ${body.data.records.length} records, expected ${expected}`);
    return body.data.total;
  };
}

// ---------- the same SQL, directly ----------

/**
 * The list's database work without HTTP, auth and serialisation: the same transaction, tenant setting,
 * counting (server/src/core/resource/count.ts) and page statement the endpoint runs, built by the
 * server's own filter and order code, sent over a connection of its own. Answers the total.
 */
export type SqlRunner = (c: Case) => Promise<number>;

export function directRunner(db: Db, limits: CountLimits, tenantId = BENCH_TENANT): SqlRunner {
  const columns = getTableColumns(notice) as ColumnMap;
  return (c) => {
    const { current = '1', size = '10', ...filters } = c.query;
    const built = buildFilters(noticeResource, columns, filters, 'zh');
    const order = buildOrder(noticeResource, columns, undefined, undefined, 'zh');
    const base = [eq(notice.isDeleted, 0), eq(notice.tenantId, tenantId)];
    return inTenant(db, { tenantId }, async (tx) => {
      const scope = await scopeList(tx, notice, notice.id, base, built, limits, true);
      const limit = Number(size);
      const offset = (Number(current) - 1) * limit;
      // as the engine does: no page statement when the exact total says the page is empty (under RLS,
      // `where false` is planned as a parallel scan with JIT, ~250 ms on 1M rows)
      if (!scope.exact || scope.total > offset) await tx.select().from(notice).where(scope.where).orderBy(...order).limit(limit).offset(offset);
      return scope.total;
    });
  };
}

// ---------- start time and idle memory of the built server ----------

export async function freePort(): Promise<number> {
  const srv = netServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

export function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

export interface StartRun {
  startMs: number;
  rssMb: number;
}

/**
 * Spawns `node <mainJs>` with env, times it until GET /version.json answers 200, waits idleMs, reads
 * VmRSS, and stops it with SIGTERM.
 */
export async function startOnce(mainJs: string, env: Record<string, string>, idleMs: number, timeoutMs = 30_000): Promise<StartRun> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [mainJs], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 10_000) stderr += d.toString();
  });
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => {
    exited = code;
    resolve();
  }));
  try {
    let startMs = -1;
    while (performance.now() - t0 < timeoutMs) {
      if (exited !== undefined) throw new Error(`server exited (${exited}) before answering: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/version.json`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        if (res.status === 200) {
          startMs = performance.now() - t0;
          break;
        }
      } catch {
        /* not listening yet */
      }
      await sleep(10);
    }
    if (startMs < 0) throw new Error(`server did not answer within ${timeoutMs} ms: ${stderr}`);
    await sleep(idleMs);
    return { startMs, rssMb: rssMb(child.pid!) };
  } finally {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exit.then(() => true), sleep(20_000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    }
  }
}
