/**
 * The workflow (issue 12) at size over its HTTP API (the server's whole request pipeline through `inject`: routing,
 * token, permission code, validation, answer), on PGlite or PostgreSQL:
 *  1. `--instances` leave requests applied for in the demo tenant (`leave/start-process`, its seeded leave model),
 *     each waiting at its approver's task (`--approvers` signed-in approvers share them): instances started per second;
 *  2. `todo-list` (the newest 20 with the total) as the approvers in turn: p95 over `--calls` calls; `claim-list` too;
 *  3. a countersign (issue 25): a model with a parallel multi-instance user task, deployed by upload
 *     (`manager/deploy-upload`), started for `--signers` approvers (`work/start-process`); each approver finds their
 *     task in `todo-list` and completes it. `--countersigns` times for each form of `flowable:collection` (a variable's
 *     name, an expression): the total from start to the instance ended, and each completion. A call that fails is
 *     reported (call, HTTP status, message) and the bench goes on;
 *  4. `--completions` approvals (`complete-task`, flag ok; short leaves, so each ends its instance) one after the
 *     other: p95 and instances completed per second; then the same with `--concurrency` at once;
 *  5. the engine's share of a step: `--engine-steps` pure engine steps (flow-engine-step.ts, in-process, no
 *     database) completing saved leave instances, each followed by a whole complete-task of another instance (so
 *     both are measured under the same load).
 *
 *   npm run bench:flow -w bench -- --db=pglite|postgres [--instances=10000] [--approvers=100] [--calls=200]
 *     [--completions=500] [--concurrency=4] [--signers=20] [--countersigns=5] [--collection=both|name|expression]
 *     [--engine-steps=500]
 *     [--db-name=console_bench_flow] [--label=latest] [--results=RESULTS.md]
 *
 * The figures go to RESULTS.md between `<!-- results:flow-<db>-<label> -->` markers (appended the first time).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { hashPassword } from '@console/server/src/core/auth/passwords.js';
import { loadConfig } from '@console/server/src/core/config.js';
import { inTenant, schema } from '@console/server/src/core/db/index.js';
import { nextId } from '@console/server/src/core/ids.js';
import { flowDefinition, flowInstance, flowTask } from '@console/server/src/areas/flow/tables.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { type Answer, type CallFailure, COUNTERSIGN_VARIANTS, type CountersignRun, type CountersignVariant, countersignModel, runCountersign } from './flow-countersign.js';
import { timeEngineStep, type WaitingInstance } from './flow-engine-step.js';
import { stats } from './measure.js';
import { writeSection } from './report.js';
import { multipart } from '@console/server/test/multipart.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'pglite');
const instances = intOption('instances', args.instances ?? '10000', 10, 1_000_000);
const approvers = intOption('approvers', args.approvers ?? '100', 1, 250);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const completions = intOption('completions', args.completions ?? '500', 10, instances / 2);
const concurrency = intOption('concurrency', args.concurrency ?? '4', 1, 64);
const signers = intOption('signers', args.signers ?? '20', 1, approvers);
const countersigns = intOption('countersigns', args.countersigns ?? '5', 0, 1000);
const collection = args.collection ?? 'both';
if (!['name', 'expression', 'both'].includes(collection)) throw new Error(`--collection must be name, expression or both, got ${collection}`);
const engineSteps = intOption('engine-steps', args['engine-steps'] ?? '500', 10, 100_000);
const dbName = args['db-name'] ?? 'console_bench_flow';
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(dbName)) throw new Error(`--db-name must be a lower-case SQL identifier, got ${dbName}`);
const label = args.label ?? 'latest';
if (!/^[a-z0-9-]{1,32}$/.test(label)) throw new Error(`--label must be lower-case letters, digits and dashes, got ${label}`);
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
    /** a call whose failure is an answer, not an exception (the countersign reports it and goes on) */
    const attempt = async <D>(headers: Record<string, string>, method: 'GET' | 'POST', url: string, opts: { body?: object; query?: Record<string, string> } = {}): Promise<Answer<D>> => {
      const res = await server.app.inject({ method, url, headers: { ...headers, 'accept-language': 'en' }, query: opts.query, payload: opts.body });
      let json: { code?: number; msg?: string; data?: D } = {};
      try {
        json = res.json();
      } catch {
        json = { msg: res.body };
      }
      const code = json.code ?? res.statusCode;
      return { ok: res.statusCode === 200 && code === 200, status: res.statusCode, code, msg: json.msg ?? '', data: json.data as D };
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

    // 3. countersigns: each form of the model deployed by upload as the demo tenant's admin, then started and signed by the approvers
    const people = approverIds.slice(0, signers).map((userId, i) => ({ userId, headers: approverHeaders[i]! }));
    const csResults: CountersignResult[] = [];
    for (const variant of countersigns > 0 ? COUNTERSIGN_VARIANTS.filter((v) => collection === 'both' || v.name === collection) : []) {
      const loadBefore = load();
      const runs: CountersignRun[] = [];
      let deployFailure: CallFailure | null = null;
      const { payload, contentType } = multipart([{ name: 'files', filename: `${variant.key}.bpmn20.xml`, type: 'application/xml', data: countersignModel(variant) }]);
      const res = await server.app.inject({ method: 'POST', url: '/api/blade-flow/manager/deploy-upload', payload, headers: { ...applicant, 'content-type': contentType, 'accept-language': 'en' } });
      const body = res.json() as { code?: number; msg?: string; data?: Array<{ definitionId: string }> };
      const definitionId = body.data?.[0]?.definitionId;
      if (res.statusCode !== 200 || body.code !== 200 || !definitionId) {
        deployFailure = { call: 'manager/deploy-upload', status: res.statusCode, code: body.code ?? res.statusCode, msg: body.msg ?? res.body.slice(0, 200) };
        log(`countersign (collection ${variant.collection}): deploy-upload failed: HTTP ${res.statusCode}, ${deployFailure.msg}`);
      } else {
        for (let r = 0; r < countersigns; r++) {
          const run = await runCountersign(attempt, applicant, definitionId, people);
          runs.push(run);
          const first = run.failures[0];
          log(`countersign (collection ${variant.collection}) ${r + 1}/${countersigns}: ${run.totalMs === null ? 'NOT ended' : `ended in ${ms(run.totalMs)} ms`}, ${run.completions.length}/${signers} completed`
            + (first ? `; ${run.failures.length} failed calls, first: ${first.call} → HTTP ${first.status}, ${first.msg}` : ''));
        }
      }
      // where each instance was left (from the tables: a stuck one is still running, with open tasks)
      const ids = runs.map((r) => r.instanceId).filter((id): id is string => id !== null);
      const left = ids.length ? await inTenant(server.ctx.db, { tenantId: T }, async (tx) => {
        const instances = await tx.select({ id: flowInstance.id, status: flowInstance.status }).from(flowInstance).where(inArray(flowInstance.id, ids));
        const tasks = await tx.select({ instanceId: flowTask.instanceId, status: flowTask.status, assignee: flowTask.assignee }).from(flowTask).where(inArray(flowTask.instanceId, ids));
        return new Map(instances.map((i) => {
          const own = tasks.filter((t) => t.instanceId === i.id);
          const open = own.filter((t) => t.status === 'open');
          return [i.id, { status: i.status, tasks: own.length, open: open.length, openAssigned: open.filter((t) => t.assignee).length }];
        }));
      }) : new Map<string, InstanceLeft>();
      csResults.push({ variant, runs, deployFailure, left, load: `${loadBefore} → ${load()}` });
    }

    // 4. approvals, each ending its instance (every leave here is 3 days or less)
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

    // 5. the engine alone, in turn with whole complete-task calls (both under the same load), on leave instances
    // waiting at their approver: the engine steps a few saved instances again and again, the calls complete others
    const POOL = 50;
    const WARMUP = 20;
    const pool = await inTenant(server.ctx.db, { tenantId: T }, async (tx) => {
      const rows = await tx.select({ id: flowTask.id, instanceId: flowTask.instanceId, assignee: flowTask.assignee, executionId: flowTask.executionId, state: flowInstance.state, definitionId: flowInstance.definitionId })
        .from(flowTask).innerJoin(flowInstance, eq(flowInstance.id, flowTask.instanceId))
        .where(and(eq(flowTask.status, 'open'), eq(flowTask.taskDefinitionKey, 'managerApproval'), eq(flowInstance.status, 'running'))).limit(POOL + WARMUP + engineSteps);
      const defs = await tx.select({ id: flowDefinition.id, compiled: flowDefinition.compiled }).from(flowDefinition)
        .where(inArray(flowDefinition.id, [...new Set(rows.map((r) => r.definitionId))]));
      const compiledOf = new Map(defs.map((d) => [d.id, d.compiled]));
      return rows.map((r) => ({ ...r, state: r.state as Record<string, unknown>, compiled: compiledOf.get(r.definitionId)! }));
    });
    const waiting: WaitingInstance[] = pool.slice(0, POOL);
    const toComplete = pool.slice(POOL);
    const pairs = toComplete.length - WARMUP;
    if (pairs < 10) throw new Error(`only ${toComplete.length} open leave tasks left for the engine's share; use more --instances`);
    const limits = { maxActivities: server.ctx.config.flow.stepMaxActivities, maxMs: server.ctx.config.flow.stepMaxMs };
    const load5 = load();
    const engineTimes: number[] = [];
    const pairedTimes: number[] = [];
    for (const [i, task] of toComplete.entries()) {
      const e = await timeEngineStep(waiting[i % waiting.length]!, limits);
      const c = await complete(task);
      if (i >= WARMUP) {
        engineTimes.push(e);
        pairedTimes.push(c);
      }
    }
    const engineStats = stats(engineTimes);
    const pairedStats = stats(pairedTimes);
    const engineLoad = `${load5} → ${load()}`;
    const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;
    log(`engine step alone: median ${ms(engineStats.median)} ms, p95 ${ms(engineStats.p95)} ms; complete-task in turn with it: median ${ms(pairedStats.median)} ms, p95 ${ms(pairedStats.p95)} ms; `
      + `engine share ${pct(engineStats.median, pairedStats.median)} (median), ${pct(engineStats.p95, pairedStats.p95)} (p95)`);

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
      ...csResults.map((c) => countersignRow(c, db)),
      `| the engine step alone (\`engineCompleteStep\`, bench/flow-engine-step.ts: one completion from the saved state; no database), ${n(pairs)} steps over ${waiting.length} saved leave instances, each followed by a whole \`complete-task\` of another instance | engine median ${ms(engineStats.median)} ms, p95 ${ms(engineStats.p95)} ms; those \`complete-task\` median ${ms(pairedStats.median)} ms, p95 ${ms(pairedStats.p95)} ms | engine share of a step: ${pct(engineStats.median, pairedStats.median)} of the median, ${pct(engineStats.p95, pairedStats.p95)} of the p95; the rest (${ms(pairedStats.median - engineStats.median)} ms median) is persistence and the request pipeline | ${engineLoad} |`,
    ].join('\n');
    writeSection(args.results ?? 'RESULTS.md', `flow-${db}-${label}`, section);
    log('written to RESULTS.md');
  } finally {
    clearInterval(sampler);
    await server.close();
    if (db === 'postgres') await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface InstanceLeft {
  status: string;
  tasks: number;
  open: number;
  /** open tasks with an assignee (a countersign's tasks are assigned, each to its approver) */
  openAssigned: number;
}

interface CountersignResult {
  variant: CountersignVariant;
  runs: CountersignRun[];
  deployFailure: CallFailure | null;
  left: Map<string, InstanceLeft>;
  load: string;
}

/** A countersign's line of the results table: p50/p95 of the totals when it ended, else what failed and where the instances were left. */
function countersignRow({ variant, runs, deployFailure, left, load: csLoad }: CountersignResult, db: 'postgres' | 'pglite'): string {
  const what = `countersign of ${signers} approvers (parallel multi-instance user task, \`flowable:collection="${variant.collection}"\`, deployed by \`deploy-upload\`): `
    + `\`start-process\`, then each approver's \`todo-list\` and \`complete-task\`, ${countersigns} times`;
  if (deployFailure) return `| ${what} | **FAILED**: \`${deployFailure.call}\` answered HTTP ${deployFailure.status} (code ${deployFailure.code}): ${deployFailure.msg} | | ${csLoad} |`;
  const ended = runs.filter((r) => r.totalMs !== null && !r.failures.length && !r.endedEarly);
  const target = db === 'postgres' ? 'total < 2 s (PostgreSQL)' : 'total < 2 s (set for PostgreSQL)';
  const parts: string[] = [];
  if (ended.length) {
    const total = stats(ended.map((r) => r.totalMs!));
    const each = stats(ended.flatMap((r) => r.completions));
    const lookup = stats(ended.flatMap((r) => r.lookups));
    parts.push(`${ended.length} of ${runs.length} ended: total median ${n(Math.round(total.median))} ms, p95 ${n(Math.round(total.p95))} ms; `
      + `each \`complete-task\` median ${ms(each.median)} ms, p95 ${ms(each.p95)} ms; each \`todo-list\` lookup median ${ms(lookup.median)} ms, p95 ${ms(lookup.p95)} ms`);
  }
  const failed = runs.filter((r) => !ended.includes(r));
  if (failed.length) {
    // the same failure in every run is said once, with its count
    const kinds = new Map<string, number>();
    for (const r of failed) {
      const first = r.failures[0];
      const where = r.instanceId ? left.get(r.instanceId) : undefined;
      const key = [
        first ? `first failed call \`${first.call}\` → HTTP ${first.status} (code ${first.code}): ${first.msg}` : (r.endedEarly ? 'ended before the last approver' : 'no call failed, yet the instance did not end'),
        `${r.completions.length} of ${signers} completions answered 200, failed calls: ${r.failures.length}`,
        where ? `instance left ${where.status} with ${where.open} of ${where.tasks} tasks open, ${where.openAssigned} of them with an assignee` : 'no instance started',
      ].join('; ');
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    for (const [key, count] of kinds) parts.push(`**FAILED** ${count} of ${runs.length}: ${key}`);
  }
  const met = ended.length === runs.length && ended.length > 0 ? (stats(ended.map((r) => r.totalMs!)).p95 < 2000 ? 'met' : 'NOT met') : 'NOT met (did not complete)';
  return `| ${what} | ${parts.join('<br>')} | ${target}: ${met} | ${csLoad} |`;
}

await main();
