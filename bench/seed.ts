/**
 * Bench data: notices for 10 tenants (one large, nine small), generated deterministically and bulk
 * loaded with COPY. The notice indexes are dropped during the load and re-created afterwards from their
 * own definitions (pg_indexes), so the indexes measured are exactly the server's.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export const BENCH_TENANT = '541742';
export const OTHER_TENANTS = ['100001', '100002', '100003', '100004', '100005', '100006', '100007', '100008', '100009'];
/** English word put in ~1% of the titles; the title case filters on it */
export const FILTER_WORD = 'recall';
export const FILTER_SHARE = 0.01;
/** create_time spans two years (Asia/Shanghai); the range case takes one month of it */
const SPAN_START = Date.parse('2023-06-01T00:00:00+08:00');
const SPAN_END = Date.parse('2025-06-01T00:00:00+08:00');
export const RANGE = { from: '2024-03-01', to: '2024-03-31' };
const DELETED_SHARE = 0.02;

const COLUMNS = [
  'id', 'tenant_id', 'title', 'category', 'release_time', 'content',
  'create_user', 'create_dept', 'create_time', 'update_user', 'update_time', 'status', 'is_deleted',
];
const COPY_SQL = `COPY blade_notice (${COLUMNS.join(', ')}) FROM STDIN`;

const ZH = ['关于', '设备', '固件', '智能锁', '网关', '售后', '维护', '通知', '升级', '华东区域', '调度', '仓储', '订单',
  '支付', '安全', '公告', '停机', '巡检', '节假日', '服务', '门锁', '电池', '保修', '政策', '发布', '计划', '华南', '华北'];
const EN = ['Smart', 'Lock', 'Gateway', 'Firmware', 'Update', 'Maintenance', 'Notice', 'Service', 'Window', 'Release',
  'Region', 'East', 'North', 'Battery', 'Warranty', 'Policy', 'Holiday', 'Schedule', 'Security', 'Patch', 'OTA',
  'Dispatch', 'Storage', 'Payment', 'Sensor', 'Door', 'Outage', 'Upgrade', 'Order', 'Audit'];
const CATEGORY_WEIGHTS = [0.35, 0.1, 0.15, 0.1, 0.05, 0.25]; // categories 1..6

export interface SeedPlan {
  /** notices of the bench tenant */
  rows: number;
  /** notices of each of the other nine tenants */
  otherRows: number;
}

export const totalRows = (p: SeedPlan) => p.rows + p.otherRows * OTHER_TENANTS.length;

/** mulberry32: small, fast, deterministic */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The rows in COPY text format, in chunks of `chunkRows`, in creation order with the tenants
 * interleaved (as they would be on a live system). Ids are snowflake-shaped: creation millisecond in the
 * high bits, a row counter in the low 22 bits, so they are unique and sort with create_time.
 */
export function* noticeChunks(plan: SeedPlan, chunkRows: number): Generator<string> {
  const rnd = prng(20240301);
  const tenants = [BENCH_TENANT, ...OTHER_TENANTS];
  const total = totalRows(plan);
  const owner = new Uint8Array(total);
  for (let i = plan.rows, t = 1; t < tenants.length; t++) owner.fill(t, i, (i += plan.otherRows));
  for (let i = total - 1; i > 0; i--) { // Fisher–Yates
    const j = Math.floor(rnd() * (i + 1));
    const x = owner[i]!;
    owner[i] = owner[j]!;
    owner[j] = x;
  }
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const step = (SPAN_END - SPAN_START) / total;
  const epoch = 1577836800000n;
  let out: string[] = [];
  for (let k = 0; k < total; k++) {
    const created = Math.floor(SPAN_START + k * step + rnd() * step * 0.9);
    const released = created + Math.floor(rnd() * 72 * 3600_000);
    const id = ((BigInt(created) - epoch) << 22n) | BigInt(k & 0x3fffff);
    let title = `${pick(ZH)}${pick(ZH)}${pick(ZH)}：${pick(EN)} ${pick(EN)} ${pick(EN)} v${1 + Math.floor(rnd() * 5)}.${Math.floor(rnd() * 20)}`;
    if (rnd() < FILTER_SHARE) title = `【Recall】${title}`;
    let c = rnd();
    let category = 1;
    for (const w of CATEGORY_WEIGHTS.slice(0, -1)) {
      if (c < w) break;
      c -= w;
      category++;
    }
    const content = `<p>${title}</p><p>${pick(ZH)}${pick(ZH)}${pick(ZH)}${pick(ZH)}，${pick(EN)} ${pick(EN)} ${pick(EN)} ${pick(EN)}.</p>`;
    const createdIso = new Date(created).toISOString();
    out.push([
      id, tenants[owner[k]!], title, category, new Date(released).toISOString(), content,
      '1123598821738675201', '1123598813738675201', createdIso, '1123598821738675201', createdIso, 1,
      rnd() < DELETED_SHARE ? 1 : 0,
    ].join('\t'));
    if (out.length === chunkRows) {
      yield `${out.join('\n')}\n`;
      out = [];
    }
  }
  if (out.length) yield `${out.join('\n')}\n`;
}

type Query = (text: string) => Promise<{ rows: Array<Record<string, unknown>> }>;

async function noticeIndexes(query: Query): Promise<Array<{ name: string; def: string }>> {
  const { rows } = await query(`select indexname, indexdef from pg_indexes
    where schemaname = 'public' and tablename = 'blade_notice' and indexname <> 'blade_notice_pkey' order by indexname`);
  return rows.map((r) => ({ name: String(r.indexname), def: String(r.indexdef) }));
}

/** Runs load() with the notice indexes dropped, then re-creates them and analyses the table. */
async function withIndexesRebuilt(query: Query, load: () => Promise<void>, log: (s: string) => void): Promise<void> {
  const indexes = await noticeIndexes(query);
  for (const ix of indexes) await query(`drop index "${ix.name}"`);
  let t = performance.now();
  await load();
  log(`  rows loaded in ${((performance.now() - t) / 1000).toFixed(1)} s; building ${indexes.length} indexes`);
  t = performance.now();
  for (const ix of indexes) await query(ix.def);
  log(`  indexes built in ${((performance.now() - t) / 1000).toFixed(1)} s; vacuum analyze`);
  await query('vacuum analyze blade_notice');
}

/** Number of notices per tenant already in the database (to reuse a seeded one). */
export async function seededPlan(query: Query): Promise<SeedPlan> {
  const { rows } = await query(`select tenant_id, count(*)::int as n from blade_notice group by tenant_id`);
  const n = (t: string) => Number(rows.find((r) => r.tenant_id === t)?.n ?? 0);
  return { rows: n(BENCH_TENANT), otherRows: n(OTHER_TENANTS[0]!) };
}

/** PostgreSQL: COPY FROM STDIN through pg-copy-streams (connected as a superuser, so RLS does not apply). */
export async function seedPostgres(client: pg.Client, plan: SeedPlan, log: (s: string) => void): Promise<void> {
  const query: Query = (text) => client.query(text);
  await query(`set maintenance_work_mem = '512MB'`);
  await withIndexesRebuilt(query, async () => {
    await pipeline(Readable.from(noticeChunks(plan, 20_000)), client.query(copyFrom(COPY_SQL)));
  }, log);
}

/** The part of PGlite's client used here (PGlite is reached through the server's drizzle instance). */
export interface PgliteLike {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: { blob?: Blob; rowMode?: 'array' | 'object' }): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
  transaction<T>(fn: (tx: { query: PgliteLike['query'] }) => Promise<T>): Promise<T>;
}

/** PGlite: COPY FROM '/dev/blob', one blob per chunk of rows. */
export async function seedPglite(client: PgliteLike, plan: SeedPlan, log: (s: string) => void): Promise<void> {
  const query: Query = (text) => client.query(text);
  await query(`set maintenance_work_mem = '256MB'`);
  await withIndexesRebuilt(query, async () => {
    let done = 0;
    for (const chunk of noticeChunks(plan, 100_000)) {
      await client.query(`COPY blade_notice (${COLUMNS.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob([chunk]) });
      done += 100_000;
      if (done % 500_000 === 0) log(`  ${done} rows`);
    }
  }, log);
}
