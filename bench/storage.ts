/**
 * Cloud-storage orders (issue 28), on PostgreSQL (or PGlite): `--rows` orders of the demo tenant (bulk SQL: paid,
 * unpaid and refunded, both channels, payment times over a year, 10 orders per lock of 100,000 locks) and a tenth as
 * many of another tenant, then the order list (`GET /api/ymy-storage/order/list`) over HTTP: the first page, deep
 * pages, a payment state, a channel, an SN typed from its start, an order number's part, a week of payments, a
 * user's orders, the amount sorted; p50/p95 of `--calls` calls after 10 warm-up calls; EXPLAIN ANALYZE of the
 * statements of any case whose p95 is 50 ms or more (captured at the pg client, run again in the tenant's transaction).
 *
 *   npm run bench:storage -w bench -- [--db=postgres|pglite] [--rows=1000000] [--calls=200] [--pg-url=…] [--results=RESULTS.md]
 *
 * The server runs in this process (createServer, listening on 127.0.0.1); its statements go through the pg client,
 * whose `query` is wrapped to capture them while a missed case is explained.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '@console/server/src/core/config.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { BASIC, sample, signIn, stats } from './measure.js';
import { machine, writeSection } from './report.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'postgres');
const rows = intOption('rows', args.rows ?? '1000000', 1000, 5_000_000);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const TENANT = '541742';
const ORDERS = '/api/ymy-storage/order';
const HERE = dirname(fileURLToPath(import.meta.url));
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () => loadavg()[0]!.toFixed(2);
const n = (v: number) => Math.round(v).toLocaleString('en');

/** the statements sent on the order table while a case is explained */
let capturing = false;
const captured: Array<{ text: string; values: unknown[] }> = [];
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function wrapped(this: pg.Client, ...a: unknown[]) {
  const first = a[0] as string | { text?: string; values?: unknown[] };
  const text = typeof first === 'string' ? first : first?.text ?? '';
  if (capturing && /^select/i.test(text.trim()) && text.includes('ymy_storage_order')) {
    // drizzle passes the parameters as the second argument, beside a config object without values
    captured.push({ text, values: (typeof first === 'object' ? first.values : undefined) ?? (Array.isArray(a[1]) ? a[1] : []) });
  }
  return query.apply(this, a);
} as typeof pg.Client.prototype.query;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-storage-'));
  const adminUrl = args['pg-url'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'console_bench_storage';
  const dbUrl = withDatabase(adminUrl, dbName);
  if (db === 'postgres') {
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
  }
  const server = await createServer(loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: db === 'postgres' ? dbUrl : '', REDIS_URL: '', PUBLIC_RATE_PER_MINUTE: '10000000',
  }, { dataDir: dir }));
  const out: string[] = [];
  try {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const exec = async (q: ReturnType<typeof sql>) => ((await server.ctx.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

    const t0 = performance.now();
    const locks = 100_000;
    // order g: lock g % locks, user g % 50,000; paid 80 %, unpaid 15 %, refunded 5 %; payment times over a year, newest first by g
    await exec(sql`
      insert into ymy_storage_order (id, tenant_id, order_no, device_sn, app_user_id, price_id, plan_name, months, storage_days, amount, currency,
        pay_channel, pay_state, pay_time, transaction_id, start_time, end_time, create_time, update_time)
      select 5000000000000000 + g, ${TENANT}, 'SO' || (5000000000000000 + g), 'BS' || lpad((g % ${locks})::text, 10, '0'),
        4000000000000000 + g % 50000, 3000000000000001 + g % 4, (array['月卡 7 天', '季卡 7 天', '年卡 30 天', '月卡 30 天'])[1 + g % 4],
        (array[1, 3, 12, 1])[1 + g % 4], (array[7, 7, 30, 30])[1 + g % 4], (array[1990, 4990, 19900, 3990])[1 + g % 4], 'CNY',
        case when g % 3 = 0 then 'alipay' else 'wechat' end,
        case when g % 20 < 16 then 'paid' when g % 20 < 19 then 'unpaid' else 'refunded' end,
        case when g % 20 < 16 or g % 20 = 19 then t.ts end, case when g % 20 < 16 or g % 20 = 19 then '4200' || g end,
        case when g % 20 < 16 then t.ts end, case when g % 20 < 16 then t.ts + interval '30 days' end, t.ts - interval '1 minute', t.ts
      from generate_series(1, ${rows}::int) g
      cross join lateral (select timestamptz '2026-11-29 00:00:00+08' - (g * (365 * 86400 / ${rows}::float8)) * interval '1 second' as ts) t`);
    await exec(sql`
      insert into ymy_storage_order (id, tenant_id, order_no, device_sn, app_user_id, price_id, plan_name, months, storage_days, amount, currency,
        pay_channel, pay_state, create_time, update_time)
      select 5900000000000000 + g, '000000', 'SO' || (5900000000000000 + g), 'BX' || lpad(g::text, 10, '0'), 1, 1, '月卡', 1, 7, 1990, 'CNY', 'wechat', 'unpaid', now(), now()
      from generate_series(1, ${Math.ceil(rows / 10)}::int) g`);
    const total = Number((await exec(sql`select count(*)::int as n from ymy_storage_order where tenant_id = ${TENANT}`))[0]!.n);
    server.ctx.upkeep.changed('ymy_storage_order', total);
    await exec(sql`vacuum analyze ymy_storage_order`).catch(() => undefined);
    log(`${n(total)} orders of ${TENANT} (+ ${n(Math.ceil(rows / 10))} of 000000) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const headers = { authorization: BASIC, 'blade-auth': `bearer ${await signIn(base, TENANT)}` };
    const sn = `BS${String(4242).padStart(10, '0')}`;
    const cases: Array<[string, Record<string, string>]> = [
      ['first page (newest first, size 10)', {}],
      ['page 1,000', { current: '1000', size: '10' }],
      ['page 10,000', { current: '10000', size: '10' }],
      ['paid', { payState: 'paid', current: '1', size: '10' }],
      ['refunded, page 100', { payState: 'refunded', current: '100', size: '10' }],
      ['Alipay', { payChannel: 'alipay', current: '1', size: '10' }],
      [`an SN typed from its start (${sn.slice(0, -1)})`, { deviceSn_likeright: sn.slice(0, -1), current: '1', size: '10' }],
      [`an SN's first ${sn.length - 3} characters`, { deviceSn_likeright: sn.slice(0, -3), current: '1', size: '10' }],
      ['a part of an order number (8 digits)', { orderNo: '00004242', current: '1', size: '10' }],
      ['a week of payments', { payTime_datege: '2026-10-01', payTime_datele: '2026-10-07', current: '1', size: '10' }],
      ['one user\'s orders', { appUserId: String(4000000000000000 + 4242), current: '1', size: '10' }],
      ['the largest amounts first', { descs: 'amount', current: '1', size: '10' }],
      ['ending soonest after a date', { ascs: 'endTime', endTime_datege: '2026-12-01', current: '1', size: '10' }],
    ];
    const lines: string[] = [];
    const explains: string[] = [];
    for (const [name, q] of cases) {
      const url = `${base}${ORDERS}/list?${new URLSearchParams(q)}`;
      let found = -1;
      let got = -1;
      const one = async () => {
        const r = await fetch(url, { headers });
        const body = (await r.json()) as { code: number; data?: { total: number; records: unknown[] } };
        if (r.status !== 200 || !body.data) throw new Error(`${name}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
        found = body.data.total;
        got = body.data.records.length;
      };
      const load0 = load();
      const s = stats(await sample(calls, 10, one));
      const ok = s.p95 < 50;
      lines.push(`| ${name} <br>\`${new URLSearchParams(q).toString() || '(none)'}\` | ${n(found)} | ${got} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${ok ? '✅' : '❌'} | ${load0} → ${load()} |`);
      log(`${name}: total ${n(found)}, ${got} records, median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`);
      if (!ok && db === 'postgres') {
        captured.length = 0;
        capturing = true;
        await one();
        capturing = false;
        const client = new pg.Client({ connectionString: dbUrl });
        await client.connect();
        try {
          for (const c of captured) {
            await client.query('begin');
            await client.query('set local role console_app');
            await client.query(`select set_config('app.tenant_id', '${TENANT}', true)`);
            const plan = await client.query(`explain (analyze, buffers) ${c.text}`, c.values);
            await client.query('rollback');
            explains.push(`${name}:`, '```', ...plan.rows.map((r) => String(r['QUERY PLAN'])), '```');
          }
        } finally {
          await client.end();
        }
      }
    }
    const revision = execSync('git rev-parse --short HEAD', { cwd: HERE }).toString().trim();
    out.push(`Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at ${revision}, ${db}, ${machine()}.`, '',
      `\`GET ${ORDERS}/list\` over HTTP (fetch to the in-process server) on ${n(total)} orders of ${TENANT} (80 % paid, 15 % unpaid, 5 % refunded; payments over a year; 10 orders per lock of 100,000 locks) and ${n(Math.ceil(rows / 10))} of another tenant; ${calls} calls a case after 10 warm-up calls, ms (target: p95 < 50 ms).`, '',
      '| case | total | records | median | p95 | met | load |', '|---|---:|---:|---:|---:|:-:|---|', ...lines);
    if (explains.length) out.push('', 'EXPLAIN ANALYZE of the order table\'s statements of each case that missed:', '', ...explains);
    writeSection(args.results ?? join(HERE, 'RESULTS.md'), `storage-${db}`, out.join('\n'));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (db === 'postgres' && !('keep' in args)) await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
