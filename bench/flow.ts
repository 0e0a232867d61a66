/**
 * The workflow engine (issue 12) at size, on PGlite or PostgreSQL, through the engine's service (no HTTP: the
 * work-list routes come next); the server in this process:
 *  1. `--instances` leave requests started in the demo tenant (its seeded leave model), each waiting at its
 *     approver's task (`--approvers` approvers share them): starts per second;
 *  2. an approver's open tasks, newest first, 20 a page with the total (the query todo-list will run): p95 over
 *     `--calls` calls, approvers taken in turn;
 *  3. `--completions` approvals (short leaves: each ends its instance) one after the other: each one's time
 *     (lock, recover, signal, settle, save state, tasks and history), p95, and instances ended per second;
 *     then the same with `--concurrency` at once.
 *
 *   npm run bench:flow -w bench -- --db=pglite|postgres [--instances=10000] [--approvers=100] [--calls=200]
 *     [--completions=500] [--concurrency=4]
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, desc, eq } from 'drizzle-orm';
import { loadConfig } from '@console/server/src/core/config.js';
import type { AuthUser } from '@console/server/src/core/context.js';
import { inTenant } from '@console/server/src/core/db/index.js';
import { flowDefinition, flowTask } from '@console/server/src/modules/flow/tables.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { stats } from './measure.js';
import { writeSection } from './report.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'pglite');
const instances = intOption('instances', args.instances ?? '10000', 10, 1_000_000);
const approvers = intOption('approvers', args.approvers ?? '100', 1, 10_000);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const completions = intOption('completions', args.completions ?? '500', 10, instances / 2);
const concurrency = intOption('concurrency', args.concurrency ?? '4', 1, 64);
const T = '541742';
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () => loadavg()[0]!.toFixed(2);
const mb = () => process.memoryUsage.rss() / 2 ** 20;
const n = (v: number) => v.toLocaleString('en');
const ms = (v: number) => v.toFixed(1);

const person = (userId: string, roleAliases: string[] = []): AuthUser => ({
  tenantId: T, userId, deptId: '', roleIds: [], roleAliases, account: userId, userName: userId, clientId: 'saber', sessionId: '',
});
const approver = (i: number) => person(String(9_100_000 + (i % approvers)));

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
  const flow = server.ctx.flow!;
  const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
  let peak = mb();
  const sampler = setInterval(() => { peak = Math.max(peak, mb()); }, 250);
  try {
    const [leave] = await inTenant(server.ctx.db, { tenantId: T }, (tx) => tx.select().from(flowDefinition).where(eq(flowDefinition.processKey, 'Leave')));
    if (!leave) throw new Error('the demo tenant has no leave model (seed 1201-flow-leave)');
    const applicant = person('9000001');

    // 1. open instances, each waiting at its approver's task
    const load0 = load();
    const t0 = performance.now();
    for (let i = 0; i < instances; i++) {
      await flow.start(applicant, leave.id, { applyUser: applicant.userId, taskUser: approver(i).userId, days: 1 + (i % 3) });
      if ((i + 1) % 2000 === 0) log(`  ${n(i + 1)} started; RSS ${mb().toFixed(0)} MB`);
    }
    const startSeconds = (performance.now() - t0) / 1000;
    const startLoad = `${load0} → ${load()}`;
    log(`${n(instances)} instances started in ${startSeconds.toFixed(1)} s (${n(Math.round(instances / startSeconds))}/s, one at a time) | load ${startLoad}`);

    // 2. an approver's todo page (the todo-list query)
    const load1 = load();
    const todo = async (i: number) => {
      const who = approver(i).userId;
      const t = performance.now();
      await inTenant(server.ctx.db, { tenantId: T }, async (tx) => {
        const where = and(eq(flowTask.tenantId, T), eq(flowTask.assignee, who), eq(flowTask.status, 'open'));
        await tx.select().from(flowTask).where(where).orderBy(desc(flowTask.createTime)).limit(20);
        await tx.select({ n: count() }).from(flowTask).where(where);
      });
      return performance.now() - t;
    };
    for (let i = 0; i < 10; i++) await todo(i);
    const todoTimes: number[] = [];
    for (let i = 0; i < calls; i++) todoTimes.push(await todo(i));
    const todoStats = stats(todoTimes);
    const todoLoad = `${load1} → ${load()}`;
    log(`todo page: median ${ms(todoStats.median)} ms, p95 ${ms(todoStats.p95)} ms`);

    // 3. approvals, each ending its instance
    const openTasks = await inTenant(server.ctx.db, { tenantId: T }, (tx) => tx.select({ id: flowTask.id, assignee: flowTask.assignee }).from(flowTask)
      .where(and(eq(flowTask.status, 'open'), eq(flowTask.taskDefinitionKey, 'managerApproval'))).limit(completions * 2));
    const complete = async (task: { id: string; assignee: string | null }) => {
      const t = performance.now();
      await flow.complete(person(task.assignee!), task.id, { pass: true, comment: 'bench' });
      return performance.now() - t;
    };
    const load2 = load();
    const one: number[] = [];
    const t1 = performance.now();
    for (const task of openTasks.slice(0, completions)) one.push(await complete(task));
    const oneSeconds = (performance.now() - t1) / 1000;
    const oneStats = stats(one);
    const oneLoad = `${load2} → ${load()}`;
    log(`complete, one at a time: median ${ms(oneStats.median)} ms, p95 ${ms(oneStats.p95)} ms; ${n(Math.round(completions / oneSeconds))} instances ended/s`);
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
    log(`complete, ${concurrency} at once: median ${ms(manyStats.median)} ms, p95 ${ms(manyStats.p95)} ms; ${n(Math.round(rest.length / manySeconds))} instances ended/s`);

    const section = [
      `Measured ${started} UTC on ${db === 'postgres' ? 'PostgreSQL' : 'PGlite'}, through the engine's service in the bench's process (no HTTP yet); peak RSS ${peak.toFixed(0)} MB.`,
      '',
      '| case | figure | load |',
      '|---|---|---|',
      `| ${n(instances)} leave requests started (each waits at one of ${approvers} approvers' tasks) | ${n(Math.round(instances / startSeconds))} starts/s one at a time (${startSeconds.toFixed(1)} s) | ${startLoad} |`,
      `| an approver's open tasks, newest 20 and the total (${n(Math.round(instances / approvers))} each; the todo-list query), ${calls} calls | median ${ms(todoStats.median)} ms, p95 ${ms(todoStats.p95)} ms | ${todoLoad} |`,
      `| ${n(completions)} approvals one at a time, each ending its instance (lock, recover, signal, settle, save) | median ${ms(oneStats.median)} ms, p95 ${ms(oneStats.p95)} ms; ${n(Math.round(completions / oneSeconds))} instances ended/s | ${oneLoad} |`,
      `| ${n(rest.length)} approvals, ${concurrency} at once | median ${ms(manyStats.median)} ms, p95 ${ms(manyStats.p95)} ms; ${n(Math.round(rest.length / manySeconds))} instances ended/s | ${manyLoad} |`,
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
