/**
 * The workflow step beside its ceiling (issue 30), on PostgreSQL: leave requests of the demo tenant (its seeded leave
 * model, short leaves, so each approval ends its instance), approved one at a time, paired rounds of `--steps` each.
 *
 *   - the console: `complete-task` over HTTP (kept-alive) on `server/dist/main.js` in a process of its own;
 *   - the ceiling: the engine step in this process (the interpreter's `runStep` on the state the server saved) plus
 *     the statements a completion needs, as the server issues them (the tenant transaction and its `set_config`s,
 *     the instance locked through its task, the task locked, the state, task, history and leave rows written,
 *     commit), through a plain `pg.Pool`: no HTTP, no token, no drizzle;
 *   - the engine step alone (timed inside the ceiling's steps), the bytes of state each step writes (and of an
 *     instance waiting at its first task);
 *   - the statements of one warm `complete-task`, from PostgreSQL's statement log (`log_statement = 'all'` on the
 *     bench's database, for a server started for that alone, before the rounds).
 *
 *   npx tsx bench/ceilings/flow.ts [--steps=500] [--rounds=3] [--skip-build] [--keep] [--write] [--profile]
 *     [--pg-url=postgres://postgres@127.0.0.1:5432/postgres] [--pg-log=/var/log/postgresql/postgresql-15-main.log]
 */
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createHash } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { hashPassword } from '@console/server/src/core/auth/passwords.js';
import { loadConfig } from '@console/server/src/core/config.js';
import { nextId } from '@console/server/src/core/ids.js';
import { loadModel } from '@console/server/src/areas/flow/bpmn/compile.js';
import type { StepLimits } from '@console/server/src/areas/flow/bpmn/runtime/context.js';
import type { InstanceState } from '@console/server/src/areas/flow/bpmn/runtime/state.js';
import { runStep } from '@console/server/src/areas/flow/bpmn/runtime/step.js';
import { intOption, withDatabase } from '../data.js';
import { BASIC, stats } from '../measure.js';
import { machine, revision, writeSection } from '../report.js';
import { type BuiltServer, log, median, processCpuMs, profileReport, RESULTS, ratioRow, startBuiltServer } from './common.js';

const DB = 'console_bench_ceilings_flow';
const T = '541742';
const PASSWORD = 'Bench#2026';
const WARMUP = 20;
/** warm completions whose statements are read from the log */
const CAPTURED = 3;

const { values: opt } = parseArgs({
  strict: false,
  options: {
    steps: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    /** the server's CPU profile over the console's rounds: its heaviest functions by self time */
    profile: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'pg-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
  },
});
const str = (k: keyof typeof opt) => String(opt[k]);
const STEPS = intOption('steps', str('steps'), 10, 100_000);
const ROUNDS = intOption('rounds', str('rounds'), 1, 20);
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const f2 = (v: number) => v.toFixed(2);

interface OpenTask { id: string; instanceId: string }
interface Answer { status: number; body: { code?: number; msg?: string; access_token?: string; data?: unknown } }

/** JSON over a kept-alive connection */
function caller(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  return (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: object) => new Promise<Answer>((resolve, reject) => {
    const payload = body ? Buffer.from(JSON.stringify(body)) : undefined;
    const req = request({
      host: '127.0.0.1', port, path, method, agent,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'] });
        } catch (e) {
          reject(e);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
type Call = ReturnType<typeof caller>;

async function signIn(call: Call, account: string, password: string): Promise<Record<string, string>> {
  const q = new URLSearchParams({ grant_type: 'password', tenantId: T, username: account, password: md5(password), scope: 'all', type: 'account' });
  const res = await call('POST', `/api/blade-auth/oauth/token?${q}`, { authorization: BASIC, 'tenant-id': T });
  if (res.status !== 200 || !res.body.access_token) throw new Error(`sign-in of ${account}: ${res.status} ${JSON.stringify(res.body)}`);
  return { authorization: BASIC, 'blade-auth': `bearer ${res.body.access_token}` };
}

/** one `complete-task` (flag ok, a comment), failing on anything but success */
async function completeOverHttp(call: Call, headers: Record<string, string>, task: OpenTask): Promise<void> {
  const res = await call('POST', '/api/blade-flow/work/complete-task', headers, { taskId: task.id, processInstanceId: task.instanceId, flag: 'ok', comment: '同意' });
  if (res.status !== 200 || res.body.code !== 200) throw new Error(`complete-task: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

// ---- the ceiling: the engine step and the completion's statements through a plain pool ----

/** the columns the server reads of an instance and a task (server/src/areas/flow/steps.ts, engine.ts), as it names them */
const INSTANCE_COLUMNS = `id::text as "id", tenant_id as "tenantId", definition_id::text as "definitionId", process_key as "processKey",
  process_name as "processName", category, business_key as "businessKey", start_user::text as "startUser", start_user_name as "startUserName", status,
  incident_reason as "incidentReason", state, variables, super_instance_id::text as "superInstanceId", super_execution_id as "superExecutionId"`;
const TASK_COLUMNS = `id::text as "id", instance_id::text as "instanceId", execution_id as "executionId",
  task_definition_key as "taskDefinitionKey", status, assignee, candidate_users as "candidateUsers", candidate_groups as "candidateGroups"`;
const HISTORY_COLUMNS = 'id, tenant_id, instance_id, event, element_id, element_type, element_name, execution_id, source_id, target_id, at';
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

interface CeilingStep { ms: number; engineMs: number; stateBytes: number }

/**
 * One completion as the server's persistence issues it, with the engine step between the reads and the writes:
 * the tenant transaction (role, tenant, timeouts), the instance locked through its open task, the task locked, the
 * assignee checked, the step run, then its writes in one statement: the instance's state (null once ended),
 * variables, timers and subscriptions, the task completed, the history appended (one JSON parameter), the leave
 * request's comment kept; commit.
 */
function ceilingStep(pool: pg.Pool, approverId: string, modelOf: (definitionId: string) => ReturnType<typeof loadModel>, limits: StepLimits, timeouts: { statement: string; idle: string }) {
  return async (task: OpenTask): Promise<CeilingStep> => {
    const t0 = performance.now();
    const c = await pool.connect();
    let engineMs = 0;
    let stateBytes = 0;
    try {
      await c.query('begin');
      await c.query("select set_config('role', $1, true), set_config('app.tenant_id', $2, true), set_config('statement_timeout', $3, true), set_config('idle_in_transaction_session_timeout', $4, true)",
        ['console_app', T, timeouts.statement, timeouts.idle]);
      const instance = (await c.query<{ id: string; definitionId: string; businessKey: string | null; startUser: string | null; status: string; state: InstanceState; superInstanceId: string | null }>(
        `select ${INSTANCE_COLUMNS} from blade_flow_instance where id = (select instance_id from blade_flow_task where id = $1 and tenant_id = $2 and status = 'open') for update`, [task.id, T])).rows[0];
      if (!instance || instance.status !== 'running') throw new Error(`ceiling: no running instance for task ${task.id}`);
      const row = (await c.query<{ executionId: string; status: string; assignee: string | null }>(`select ${TASK_COLUMNS} from blade_flow_task where id = $1 for update`, [task.id])).rows[0];
      if (!row || row.status !== 'open' || row.assignee !== approverId) throw new Error(`ceiling: task ${task.id} is not the approver's open task`);
      const e0 = performance.now();
      const r = await runStep(modelOf(instance.definitionId), instance.state, { complete: { taskId: row.executionId, variables: { pass: true, comment: '同意' } } },
        { handlers: {}, limits, businessKey: instance.businessKey, called: !!instance.superInstanceId });
      engineMs = performance.now() - e0;
      const at = new Date().toISOString();
      const ended = r.status === 'completed';
      const state = r.state === null ? null : JSON.stringify(r.state);
      const variables = JSON.stringify(r.variables);
      stateBytes = Buffer.byteLength(state ?? '') + Buffer.byteLength(variables);
      if (r.opened.length) throw new Error('ceiling: a short leave opens no task on approval');
      const closed = r.closed.filter((x) => x.outcome === 'completed').map((x) => x.taskId);
      const history = r.history.map((h) => ({
        id: nextId(), tenant_id: T, instance_id: instance.id, event: h.event, element_id: h.elementId, element_type: h.elementType, element_name: h.elementName,
        execution_id: h.executionId, source_id: h.sourceId, target_id: h.targetId, at: h.at.toISOString(),
      }));
      const leaveComment = instance.businessKey && instance.startUser !== approverId;
      // the step's writes in one statement, as the server writes them (steps.ts record)
      await c.query(`with w0 as (update blade_flow_instance set status = $1, state = $2::jsonb, due_at = $3::timestamptz, variables = $4::jsonb, `
        + `waits_messages = $5::text[], waits_signals = $6::text[], update_time = $7::timestamptz${ended ? ', end_time = $7::timestamptz' : ''} where id = $8), `
        + "w1 as (update blade_flow_task set status = 'completed', end_time = $7::timestamptz, outcome = $9, comment = $10, completed_by = $11 "
        + "where instance_id = $8 and execution_id = any($12::text[]) and status = 'open'), "
        + `w2 as (insert into blade_flow_history (${HISTORY_COLUMNS}) select ${HISTORY_COLUMNS} from json_populate_recordset(null::blade_flow_history, $13::json))`
        + (leaveComment ? ', w3 as (update blade_process_leave set approval_comment = $14, update_user = $15, update_time = $7::timestamptz where id = $16 and process_instance_id = $8)' : '')
        + ' select 1',
      [ended ? 'completed' : 'running', state, r.dueAt ? r.dueAt.toISOString() : null, variables, textArray(r.waitsFor.messages), textArray(r.waitsFor.signals), at, instance.id,
        'pass', '同意', approverId, textArray(closed), JSON.stringify(history), ...(leaveComment ? ['同意', approverId, instance.businessKey] : [])]);
      await c.query('commit');
    } catch (e) {
      await c.query('rollback').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
    return { ms: performance.now() - t0, engineMs, stateBytes };
  };
}

// ---- the statement log ----

interface Logged { pid: string; text: string }

/** PostgreSQL's log from `offset` on: the statements run on `db` by other backends than `exceptPid` */
function loggedStatements(file: string, offset: number, db: string, exceptPid: number): Logged[] {
  const size = statSync(file).size;
  const buf = Buffer.alloc(size - offset);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, offset);
  } finally {
    closeSync(fd);
  }
  const entries: Array<{ pid: string; db: string; text: string }> = [];
  for (const line of buf.toString('utf8').split('\n')) {
    const m = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \w+ \[(\d+)\] (?:\S+@(\S+) )?(\w+):\s+(.*)$/.exec(line);
    if (m) entries.push({ pid: m[1]!, db: m[2] ?? '', text: `${m[3]}: ${m[4]}` });
    else if (entries.length && /^\s/.test(line)) entries.at(-1)!.text += ` ${line.trim()}`;
  }
  return entries
    .filter((e) => e.db === db && e.pid !== String(exceptPid) && /^LOG: (statement|execute [^:]*):/.test(e.text))
    .map((e) => ({ pid: e.pid, text: e.text.replace(/^LOG: (statement|execute [^:]*): /, '').replace(/\s+/g, ' ') }));
}

/**
 * The statements of each completion among what the log holds: its transaction (the one that touches
 * blade_flow_task) and what ran outside a transaction before it (the request's own reads); the scheduler's and
 * the logs' own transactions are left out.
 */
function completionStatements(all: Logged[]): string[][] {
  const out: string[][] = [];
  let outside: string[] = [];
  const open = new Map<string, string[]>();
  for (const s of all) {
    const tx = open.get(s.pid);
    if (/^begin/i.test(s.text)) open.set(s.pid, [s.text]);
    else if (tx) {
      tx.push(s.text);
      if (/^(commit|rollback)/i.test(s.text)) {
        open.delete(s.pid);
        if (tx.some((x) => x.includes('blade_flow_task'))) {
          out.push([...outside, ...tx]);
          outside = [];
        }
      }
    } else outside.push(s.text);
  }
  return out;
}

// ---- the run ----

/** the built server, saying so when it ends before the bench stops it (a signal from elsewhere on a shared machine) */
async function serve(o: Parameters<typeof startBuiltServer>[0]): Promise<BuiltServer> {
  const server = await startBuiltServer(o);
  let stopping = false;
  server.child.once('exit', (code, signal) => {
    if (!stopping) log(`the server (pid ${server.child.pid}) ended by itself: exit code ${code}, signal ${signal}`);
  });
  return {
    ...server,
    stop: () => {
      stopping = true;
      return server.stop();
    },
  };
}

/** a round's calls (ms), and the CPU each side's process spent per call (ms): the server's, the bench's for the ceiling */
interface Round { console: number[]; ceiling: CeilingStep[]; consoleCpu: number; ceilingCpu: number }

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const pgUrl = str('pg-url');
  const admin = new pg.Client({ connectionString: withDatabase(pgUrl, 'postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${DB} with (force)`);
  await admin.query(`create database ${DB}`);
  const url = withDatabase(pgUrl, DB);
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-ceilings-flow-'));
  const profileDir = opt.profile ? await mkdtemp(join(tmpdir(), 'console-bench-profile-')) : undefined;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  let stop = async () => undefined as void;
  try {
    // migrations and seed data (the demo tenant's leave model) by the server's first start, then the approver
    const config = loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: url, REDIS_URL: '', MQTT_PORT: 'off', NODE_ENV: 'production' }, { dataDir });
    const limits: StepLimits = { maxActivities: config.flow.stepMaxActivities, maxMs: config.flow.stepMaxMs };
    const timeouts = { statement: `${config.limits.statementTimeoutMs}ms`, idle: `${config.limits.transactionTimeoutMs}ms` };
    await (await serve({ databaseUrl: url, dataDir, skipBuild: Boolean(opt['skip-build']) })).stop();
    const approverId = nextId();
    await pool.query(`insert into blade_user (id, tenant_id, account, password, real_name, role_id, dept_id)
      values ($1, $2::text, 'bench-approver', $3, '审批人', (select id::text from blade_role where tenant_id = $2::text and role_alias = 'admin' and is_deleted = 0 limit 1),
        (select id::text from blade_dept where tenant_id = $2::text order by id limit 1))`, [approverId, T, await hashPassword(md5(PASSWORD))]);
    const [leave] = (await pool.query<{ id: string; compiled: string }>("select id, compiled from blade_flow_definition where tenant_id = $1 and process_key = 'Leave' order by version desc limit 1", [T])).rows;
    if (!leave) throw new Error('the demo tenant has no leave model (seed 1201-flow-leave)');
    const model = loadModel(leave.compiled);
    const modelOf = (definitionId: string) => {
      if (definitionId !== leave.id) throw new Error(`ceiling: an instance of another definition (${definitionId})`);
      return model;
    };

    // the statements of one warm completion, on a server started with the statement log on
    const pgLog = str('pg-log');
    let statements: string[][] | null = null;
    await admin.query(`alter database ${DB} set log_statement = 'all'`);
    {
      const logged = await serve({ databaseUrl: url, dataDir, skipBuild: true });
      stop = logged.stop;
      const call = caller(logged.port);
      const applicant = await signIn(call, 'admin', 'admin');
      const approver = await signIn(call, 'bench-approver', PASSWORD);
      const tasks = await startLeaves(call, applicant, leave.id, approverId, 5 + CAPTURED, pool);
      for (const task of tasks.slice(0, 5)) await completeOverHttp(call, approver, task);
      if (existsSync(pgLog)) {
        const mine = (await admin.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const offset = statSync(pgLog).size;
        for (const task of tasks.slice(5)) await completeOverHttp(call, approver, task);
        await new Promise((r) => setTimeout(r, 300));
        statements = completionStatements(loggedStatements(pgLog, offset, DB, mine));
        if (statements.length !== CAPTURED) throw new Error(`the statement log holds ${statements.length} completions, not ${CAPTURED}`);
        log(`statements of ${CAPTURED} warm complete-task calls: ${statements.map((s) => s.length).join(', ')}; the last:\n${statements.at(-1)!.map((s, i) => `  ${String(i + 1).padStart(2)}. ${s.slice(0, 240)}`).join('\n')}`);
      } else log(`no statement log at ${pgLog}: the statements are not counted`);
      await logged.stop();
    }
    await admin.query(`alter database ${DB} reset log_statement`);

    // the instances, started by a server of their own (the profile is the completions' alone)
    const tasks = await (async () => {
      const starter = await serve({ databaseUrl: url, dataDir, skipBuild: true });
      stop = starter.stop;
      const n = 2 * (ROUNDS * STEPS + WARMUP);
      log(`starting ${n} leave requests over HTTP`);
      const started = await startLeaves(caller(starter.port), await signIn(caller(starter.port), 'admin', 'admin'), leave.id, approverId, n, pool);
      await starter.stop();
      return started;
    })();
    await pool.query('vacuum analyze blade_flow_instance, blade_flow_task, blade_flow_history, blade_process_leave');
    const product = await serve({ databaseUrl: url, dataDir, skipBuild: true, profileDir });
    stop = product.stop;
    const call = caller(product.port);
    const approver = await signIn(call, 'bench-approver', PASSWORD);
    const waiting = (await pool.query<{ state: number; stored: number; variables: number }>(
      "select avg(octet_length(state::text))::float as state, avg(pg_column_size(state))::float as stored, avg(octet_length(variables::text))::float as variables from blade_flow_instance where tenant_id = $1 and status = 'running'", [T])).rows[0]!;
    const ceiling = ceilingStep(pool, approverId, modelOf, limits, timeouts);
    const consoleStep = async (task: OpenTask) => {
      const t = performance.now();
      await completeOverHttp(call, approver, task);
      return performance.now() - t;
    };

    let next = 0;
    const take = (n: number) => {
      const out = tasks.slice(next, next + n);
      next += n;
      return out;
    };
    for (const task of take(WARMUP)) await consoleStep(task);
    for (const task of take(WARMUP)) await ceiling(task);
    const loadBefore = loadavg()[0]!;
    const rounds: Round[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const round: Round = { console: [], ceiling: [], consoleCpu: 0, ceilingCpu: 0 };
      // the two sides in turn, a call each, so that both see the same load of a shared machine
      const serverCpu = processCpuMs(product.child.pid!);
      const consoleTasks = take(STEPS);
      const ceilingTasks = take(STEPS);
      for (let i = 0; i < STEPS; i++) {
        round.console.push(await consoleStep(consoleTasks[i]!));
        const benchCpu = ownCpuMs();
        round.ceiling.push(await ceiling(ceilingTasks[i]!));
        round.ceilingCpu += (ownCpuMs() - benchCpu) / STEPS;
      }
      round.consoleCpu = (processCpuMs(product.child.pid!) - serverCpu) / STEPS;
      rounds.push(round);
      const c = stats(round.console);
      const s = stats(round.ceiling.map((x) => x.ms));
      log(`round ${r}: complete-task median ${f2(c.median)} ms (p95 ${f2(c.p95)}, server CPU ${f2(round.consoleCpu)} ms per call), `
        + `ceiling median ${f2(s.median)} ms (p95 ${f2(s.p95)}, bench CPU ${f2(round.ceilingCpu)} ms per step), ×${f2(c.median / s.median)}`);
    }
    const loadAfter = loadavg()[0]!;
    const engine = `PostgreSQL ${(await pool.query<{ server_version: string }>('show server_version')).rows[0]!.server_version}`;
    if (profileDir) {
      await product.stop();
      console.log(`the server's heaviest functions by self time (its start, the warm-up and the rounds' completions):\n${profileReport(profileDir)}`);
    }
    const text = report({ rounds, engine, loadBefore, loadAfter, statements, waiting });
    console.log(`\n${text}\n`);
    if (opt.write) writeSection(RESULTS, 'ceilings-flow-postgres', text);
  } finally {
    await stop();
    await admin.query(`alter database ${DB} reset log_statement`).catch(() => undefined);
    if (profileDir && !opt.keep) rmSync(profileDir, { recursive: true, force: true });
    else if (profileDir) log(`the profile is kept in ${profileDir}`);
    await pool.end();
    rmSync(dataDir, { recursive: true, force: true });
    if (!opt.keep) await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.end();
  }
}

/** `n` short leave requests (each approval ends its instance), two at a time: their approver's open tasks */
async function startLeaves(call: Call, applicant: Record<string, string>, definitionId: string, approverId: string, n: number, pool: pg.Pool): Promise<OpenTask[]> {
  const ids: string[] = [];
  let i = 0;
  await Promise.all([0, 1].map(async () => {
    while (i < n) {
      const k = i++;
      const res = await call('POST', '/api/blade-desk/process/leave/start-process', applicant, {
        processDefinitionId: definitionId, startTime: '2026-12-01 09:00:00', endTime: '2026-12-01 18:00:00', days: 1, reason: `bench ${k}`, taskUser: approverId,
      });
      const data = res.body.data as { processInstanceId?: string } | undefined;
      if (res.status !== 200 || res.body.code !== 200 || !data?.processInstanceId) throw new Error(`start-process: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      ids.push(data.processInstanceId);
    }
  }));
  const rows = (await pool.query<{ id: string; instance_id: string }>(
    "select id::text, instance_id::text from blade_flow_task where instance_id = any($1::bigint[]) and status = 'open' order by id", [ids])).rows;
  if (rows.length !== n) throw new Error(`${n} leave requests started, ${rows.length} open tasks found`);
  return rows.map((r) => ({ id: r.id, instanceId: r.instance_id }));
}

function report(o: { rounds: Round[]; engine: string; loadBefore: number; loadAfter: number; statements: string[][] | null; waiting: { state: number; stored: number; variables: number } }): string {
  const p95 = (xs: number[]) => stats(xs).p95;
  const consoleMedians = o.rounds.map((r) => stats(r.console).median);
  const ceilingMedians = o.rounds.map((r) => stats(r.ceiling.map((x) => x.ms)).median);
  const consoleP95 = o.rounds.map((r) => p95(r.console));
  const ceilingP95 = o.rounds.map((r) => p95(r.ceiling.map((x) => x.ms)));
  const engineAll = o.rounds.flatMap((r) => r.ceiling.map((x) => x.engineMs));
  const engine = stats(engineAll);
  const bytes = stats(o.rounds.flatMap((r) => r.ceiling.map((x) => x.stateBytes)));
  const ratio = median(consoleMedians) / median(ceilingMedians);
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} on ${machine()}, revision ${revision()}, ${o.engine}: approvals of short leave requests of the `
      + `demo tenant (its seeded leave model: each approval ends its instance), one at a time, ${ROUNDS} rounds of ${STEPS} steps each side, the sides in turn a call each, after ${WARMUP} warm-up steps each side. `
      + 'The console: `complete-task` over HTTP (kept-alive) on server/dist/main.js in its own process. The ceiling: the engine step in the bench\'s process '
      + '(the interpreter\'s runStep on the state the server saved, the model parsed once) and the statements a completion needs, as the server issues them '
      + '(begin, the tenant\'s set_config, the instance locked through its open task, the task locked, the instance, task, history and leave rows written in one statement, commit), '
      + `through a plain pg.Pool(1): no HTTP, no token, no drizzle. Load average ${o.loadBefore.toFixed(2)} → ${o.loadAfter.toFixed(2)}. Times in ms.`,
    '',
    '| measure | console | ceiling | ratio | rounds (console / ceiling) |',
    '|---|---:|---:|---:|---|',
    ratioRow('complete-task, median', consoleMedians, ceilingMedians, 'time', 2),
    ratioRow('complete-task, p95', consoleP95, ceilingP95, 'time', 2),
    ratioRow('CPU per step: the server\'s / the bench\'s', o.rounds.map((r) => r.consoleCpu), o.rounds.map((r) => r.ceilingCpu), 'time', 2),
    '',
    `- complete-task ÷ ceiling (medians): ×${f2(ratio)} (target ≤ ×1.5: ${ratio <= 1.5 ? 'met' : 'not met'}).`,
    `- The engine step alone (runStep, in-process, inside the ceiling's steps, ${engineAll.length} steps): median ${f2(engine.median)} ms, p95 ${f2(engine.p95)} ms.`,
    `- State written per step: ${Math.round(bytes.median)} bytes of JSON (state and variables; an approval that ends its instance writes no state, only its variables). `
      + `An instance waiting at its first task holds ${Math.round(o.waiting.state)} bytes of state as JSON text (${Math.round(o.waiting.stored)} stored), ${Math.round(o.waiting.variables)} of variables.`,
    o.statements
      ? `- Statements of a warm complete-task (PostgreSQL's statement log, ${CAPTURED} calls: ${o.statements.map((s) => s.length).join(', ')}), each a round trip: `
        + `${o.statements.at(-1)!.map((s) => `\`${summary(s)}\``).join(', ')}.`
      : '- Statements of one complete-task: not counted (no statement log readable).',
  ];
  return lines.join('\n');
}

/** a statement in a few words: its verb and table */
function summary(s: string): string {
  const verb = s.split(' ')[0]!.toLowerCase();
  const table = /(?:from|into|update)\s+"?([a-z_]+)"?/i.exec(s)?.[1];
  if (verb === 'select' && s.includes('set_config')) return 'select set_config(…)';
  if (verb === 'with') return `one statement: ${[...s.matchAll(/\b(update|insert into)\s+"?([a-z_]+)"?/gi)].map((m) => `${m[1]!.split(' ')[0]!.toLowerCase()} ${m[2]}`).join(', ')}`;
  return table ? `${verb} ${table}${/for update/i.test(s) ? ' for update' : ''}` : verb;
}

await main();
