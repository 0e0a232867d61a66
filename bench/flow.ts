/**
 * The workflow (issue 12) at size over its HTTP API (the server's whole request pipeline through `inject`: routing,
 * token, permission code, validation, answer), on PGlite or PostgreSQL:
 *  1. `--instances` leave requests applied for in the demo tenant (`leave/start-process`, its seeded leave model),
 *     each waiting at its approver's task (`--approvers` signed-in approvers share them): instances started per second;
 *  2. `todo-list` (the newest 20 with the total) as the approvers in turn: p95 over `--calls` calls; `claim-list` too;
 *  3. `--completions` approvals (`complete-task`, flag ok; short leaves, so each ends its instance) one after the
 *     other: p95 and instances completed per second; then the same with `--concurrency` at once.
 *
 *   npm run bench:flow -w bench -- --db=pglite|postgres [--instances=10000] [--approvers=100] [--calls=200]
 *     [--completions=500] [--concurrency=4]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '@console/server/src/core/auth/passwords.js';
import { loadConfig } from '@console/server/src/core/config.js';
import { inTenant, schema } from '@console/server/src/core/db/index.js';
import { nextId } from '@console/server/src/core/ids.js';
import { flowDefinition, flowTask } from '@console/server/src/areas/flow/tables.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { stats } from './measure.js';
import { writeSection } from './report.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'pglite');
const instances = intOption('instances', args.instances ?? '10000', 10, 1_000_000);
const approvers = intOption('approvers', args.approvers ?? '100', 1, 250);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const completions = intOption('completions', args.completions ?? '500', 10, instances / 2);
const concurrency = intOption('concurrency', args.concurrency ?? '4', 1, 64);
const T = '541742';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const PASSWORD = 'Bench#2026';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () => loadavg()[0]!.toFixed(2);
const mb = () => process.memoryUsage.rss() / 2 ** 20;
const n = (v: number) => v.toLocaleString('en');
const ms = (v: number) => v.toFixed(1);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-flow-'));
  const adminUrl = args['pg-url'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'console_bench_flow';
  if (db === 'postgres') {
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
  }
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DATABASE_URL: db === 'postgres' ? withDatabase(adminUrl, dbName) : '', MQTT_PORT: 'off',
  }, { dataDir: dir });
  const server = await createServer(config);
  const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
  let peak = mb();
  const sampler = setInterval(() => { peak = Math.max(peak, mb()); }, 250);
  try {
    // each sign-in from an address of its own (the sign-in guard budgets sign-ins per address)
    const signIn = async (account: string, password: string, i: number) => {
      const res = await server.app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', remoteAddress: `10.9.${i >> 8}.${i & 255}`, headers: { authorization: BASIC, 'tenant-id': T },
        query: { grant_type: 'password', tenantId: T, username: account, password: md5(password), scope: 'all', type: 'account' },
      });
      const token = (res.json() as { access_token?: string }).access_token;
      if (!token) throw new Error(`sign-in of ${account}: ${res.body}`);
      return { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    };
    const call = async <D>(headers: Record<string, string>, method: 'GET' | 'POST', url: string, opts: { body?: object; query?: Record<string, string> } = {}) => {
      const res = await server.app.inject({ method, url, headers, query: opts.query, payload: opts.body });
      const json = res.json() as { code: number; msg: string; data: D };
      if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`);
      return json.data;
    };
    const timed = async (fn: () => Promise<unknown>) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };

    // the approvers: users of the demo tenant's administrator role (it holds the work menus)
    const approverIds = await inTenant(server.ctx.db, { tenantId: T }, async (tx) => {
      const [role] = await tx.select({ id: schema.role.id }).from(schema.role).where(and(eq(schema.role.roleAlias, 'admin'), eq(schema.role.isDeleted, 0)));
      const [dept] = await tx.select({ id: schema.dept.id }).from(schema.dept);
      const hash = await hashPassword(md5(PASSWORD));
      const rows = Array.from({ length: approvers }, (_, i) => ({
        id: nextId(), tenantId: T, account: `bench-approver-${i}`, passwordHash: hash, realName: `审批人 ${i}`, roleId: String(role!.id), deptId: String(dept!.id),
      }));
      await tx.insert(schema.user).values(rows);
      return rows.map((r) => r.id);
    });
    const applicant = await signIn('admin', 'admin', 0);
    const approverHeaders: Array<Record<string, string>> = [];
    for (let i = 0; i < approvers; i++) approverHeaders.push(await signIn(`bench-approver-${i}`, PASSWORD, i + 1));
    const [leave] = await inTenant(server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowDefinition).where(eq(flowDefinition.processKey, 'Leave')));
    if (!leave) throw new Error('the demo tenant has no leave model (seed 1201-flow-leave)');

    // 1. open instances, each waiting at its approver's task
    const load0 = load();
    const t0 = performance.now();
    for (let i = 0; i < instances; i++) {
      await call(applicant, 'POST', '/api/blade-desk/process/leave/start-process', {
        body: { processDefinitionId: leave.id, startTime: '2026-12-01 09:00:00', endTime: '2026-12-03 18:00:00', days: 1 + (i % 3), reason: `bench ${i}`, taskUser: approverIds[i % approvers] },
      });
      if ((i + 1) % 2000 === 0) log(`  ${n(i + 1)} started; RSS ${mb().toFixed(0)} MB`);
    }
    const startSeconds = (performance.now() - t0) / 1000;
    const startLoad = `${load0} → ${load()}`;
    log(`${n(instances)} leave requests started in ${startSeconds.toFixed(1)} s (${n(Math.round(instances / startSeconds))}/s, one at a time) | load ${startLoad}`);

    // 2. the approvers' todo pages, and a claim list (the HR step's candidates: none of these tasks)
    const page = { current: '1', size: '20' };
    const listCalls = async (path: string) => {
      for (let i = 0; i < 10; i++) await call(approverHeaders[i % approvers]!, 'GET', path, { query: page });
      const times: number[] = [];
      for (let i = 0; i < calls; i++) times.push(await timed(() => call(approverHeaders[i % approvers]!, 'GET', path, { query: page })));
      return stats(times);
    };
    const load1 = load();
    const todoStats = await listCalls('/api/blade-flow/work/todo-list');
    const todoLoad = `${load1} → ${load()}`;
    log(`todo-list: median ${ms(todoStats.median)} ms, p95 ${ms(todoStats.p95)} ms`);
    const load1b = load();
    const claimStats = await listCalls('/api/blade-flow/work/claim-list');
    const claimLoad = `${load1b} → ${load()}`;
    log(`claim-list: median ${ms(claimStats.median)} ms, p95 ${ms(claimStats.p95)} ms`);

    // 3. approvals, each ending its instance (every leave here is 3 days or less)
    const openTasks = await inTenant(server.ctx.db, { tenantId: T }, (tx) => tx.select({ id: flowTask.id, instanceId: flowTask.instanceId, assignee: flowTask.assignee })
      .from(flowTask).where(and(eq(flowTask.status, 'open'), eq(flowTask.taskDefinitionKey, 'managerApproval'))).limit(completions * 2));
    const headersOf = new Map(approverIds.map((id, i) => [id, approverHeaders[i]!]));
    const complete = (task: (typeof openTasks)[number]) => timed(() => call(headersOf.get(task.assignee!)!, 'POST', '/api/blade-flow/work/complete-task', {
      body: { taskId: task.id, processInstanceId: task.instanceId, flag: 'ok', comment: '同意' },
    }));
    const load2 = load();
    const one: number[] = [];
    const t1 = performance.now();
    for (const task of openTasks.slice(0, completions)) one.push(await complete(task));
    const oneSeconds = (performance.now() - t1) / 1000;
    const oneStats = stats(one);
    const oneLoad = `${load2} → ${load()}`;
    log(`complete-task, one at a time: median ${ms(oneStats.median)} ms, p95 ${ms(oneStats.p95)} ms; ${n(Math.round(completions / oneSeconds))} instances completed/s`);
    const rest = openTasks.slice(completions, completions * 2);
    const many: number[] = [];
    let next = 0;
    const t2 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < rest.length) many.push(await complete(rest[next++]!));
    }));
    const manySeconds = (performance.now() - t2) / 1000;
    const manyStats = stats(many);
    const manyLoad = `${oneLoad.split(' → ')[1]} → ${load()}`;
    log(`complete-task, ${concurrency} at once: median ${ms(manyStats.median)} ms, p95 ${ms(manyStats.p95)} ms; ${n(Math.round(rest.length / manySeconds))} instances completed/s`);

    const section = [
      `Measured ${started} UTC on ${db === 'postgres' ? 'PostgreSQL' : 'PGlite'}, over the HTTP API (the server's request pipeline in the bench's process: token, permission code, validation, answer); peak RSS ${peak.toFixed(0)} MB.`,
      '',
      '| case | figure | target | load |',
      '|---|---|---|---|',
      `| ${n(instances)} leave requests applied for (\`leave/start-process\`: the request and its instance in one transaction), each waiting at one of ${approvers} approvers | ${n(Math.round(instances / startSeconds))} instances started/s, one at a time (${startSeconds.toFixed(1)} s) | | ${startLoad} |`,
      `| \`todo-list\` with ${n(instances)} open instances (${n(Math.round(instances / approvers))} tasks each; newest 20 and the total), ${calls} calls | median ${ms(todoStats.median)} ms, p95 ${ms(todoStats.p95)} ms | p95 < 50 ms: ${todoStats.p95 < 50 ? 'met' : 'NOT met'} | ${todoLoad} |`,
      `| \`claim-list\` (tasks offered through a user or role), ${calls} calls | median ${ms(claimStats.median)} ms, p95 ${ms(claimStats.p95)} ms | | ${claimLoad} |`,
      `| ${n(completions)} \`complete-task\` one at a time, each completing its instance | median ${ms(oneStats.median)} ms, p95 ${ms(oneStats.p95)} ms; ${n(Math.round(completions / oneSeconds))} instances completed/s | p95 < 100 ms: ${oneStats.p95 < 100 ? 'met' : 'NOT met'} | ${oneLoad} |`,
      `| ${n(rest.length)} \`complete-task\`, ${concurrency} at once | median ${ms(manyStats.median)} ms, p95 ${ms(manyStats.p95)} ms; ${n(Math.round(rest.length / manySeconds))} instances completed/s | | ${manyLoad} |`,
    ].join('\n');
    writeSection(args.results ?? 'RESULTS.md', `flow-${db}`, section);
    log('written to RESULTS.md');
  } finally {
    clearInterval(sampler);
    await server.close();
    if (db === 'postgres') await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  }
}

await main();
