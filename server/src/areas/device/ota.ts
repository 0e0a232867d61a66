import { type Lang, PLATFORM_TENANT } from '@console/contract';
import {
  OTA_FINAL_STATES, OTA_STATES, type OtaState, otaTaskResource, RELEASE_STATE,
} from '@console/contract/areas/device/index';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import { insertRows } from '../../core/db/bulk.js';
import { allowLongStatements, inTenant, rowsAffected } from '../../core/db/index.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { idBlockSql, nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { batch, bySnColumn, deviceOwner, ownedSns } from '../production/index.js';
import { byProductColumn } from '../product/index.js';
import type { Gateway, Uplink } from './gateway/types.js';
import { isFinal, move, reportedState } from './otaMachine.js';
import { claimReportTokens, tokenKey } from './reportTokens.js';
import { OTA } from './services.js';
import { firmware, otaLog, otaProgress, otaTask } from './tables.js';

type Row = Record<string, unknown>;

const MAX_SELECTED = 100_000;
const ACTIVE = OTA_STATES.filter((s) => !OTA_FINAL_STATES.includes(s) && s !== 'queued');
const pgList = (values: readonly string[]) => `{${values.join(',')}}`;

/** SNs as an operator pastes them: lines, commas, spaces; upper-cased, without repeats. */
export function parseSnList(raw: unknown): string[] {
  const parts = Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(/[\s,;，；]+/);
  return [...new Set(parts.map((s) => s.trim().toUpperCase()).filter(Boolean))];
}

/**
 * The devices of a new task, written as its progress rows in one statement: every device of the product, of a
 * batch of it, or the SNs given (each must be a device of the product). Devices reported on the target version
 * start as succeeded; the others are queued, their turns spaced by the task's rate, so the scheduler only
 * takes rows whose turn has come. A device still upgrading in another running task is taken from it (cancelled
 * there: the newer task wins).
 */
async function enrolDevices(tx: Executor, task: Row, sns: string[] | undefined, lang: Lang): Promise<number> {
  const taskId = String(task.id);
  const spacingMs = 60_000 / Number(task.rateLimit);
  const scope = String(task.scope);
  const devices = scope === 'selected'
    ? sql`select d.sn, d.product_id from ymy_factory_device d where d.sn = any(${pgList(sns!)}::text[]) and d.product_id = ${task.productId}::bigint`
    : scope === 'batch'
      ? sql`select d.sn, d.product_id from ymy_factory_device d where d.batch_id = ${task.batchId}::bigint`
      : sql`select d.sn, d.product_id from ymy_factory_device d where d.product_id = ${task.productId}::bigint`;
  await allowLongStatements(tx, 120_000);
  const [{ n }] = (await tx.execute(sql`select count(*)::int as n from (${devices}) d`) as unknown as { rows: Array<{ n: number }> }).rows as [{ n: number }];
  await tx.execute(sql`
    update ymy_ota_progress p set state = 'cancelled', due_time = null, error_message = ${`superseded by task ${String(task.taskName)}`}, last_report_time = now()
    from (${devices}) d, ymy_ota_task t
    where p.device_sn = d.sn and t.id = p.task_id and t.state = 'running' and t.product_id = ${task.productId}::bigint
      and p.state not in ('succeeded', 'failed', 'timed_out', 'cancelled')`);
  const inserted = await tx.execute(sql`
    insert into ymy_ota_progress (id, task_id, device_sn, product_id, from_version, to_version, state, percent, due_time, last_report_time, create_time)
    select ${idBlockSql(n, sql`(row_number() over (order by d.sn) - 1)`)}, ${taskId}::bigint, d.sn, d.product_id, s.firmware_version, ${task.toVersion},
           case when s.firmware_version = ${task.toVersion} then 'succeeded' else 'queued' end,
           case when s.firmware_version = ${task.toVersion} then 100 else 0 end,
           case when s.firmware_version = ${task.toVersion} then null
                else now() + (row_number() over (order by d.sn) - 1) * (${spacingMs}::double precision * interval '1 millisecond') end,
           case when s.firmware_version = ${task.toVersion} then now() end,
           now()
    from (${devices}) d left join ymy_device_status s on s.sn = d.sn`);
  const total = rowsAffected(inserted);
  if (scope === 'selected' && total !== sns!.length) {
    const found = await tx.execute(sql`select sn from ymy_factory_device where sn = any(${pgList(sns!)}::text[]) and product_id = ${task.productId}::bigint`);
    const known = new Set((found as unknown as { rows: Array<{ sn: string }> }).rows.map((r) => r.sn));
    const missing = sns!.filter((s) => !known.has(s));
    throw fieldError('otaDevicesUnknown', lang, 'deviceSns', { count: missing.length, sns: missing.slice(0, 5).join(', ') });
  }
  if (total === 0) throw fieldError('otaNoDevices', lang, scope === 'batch' ? 'batchId' : 'scope');
  return total;
}

/**
 * A task as a tenant sees it: its counts over the tenant's own devices (one grouped read for the page's tasks,
 * through the (task_id, device_sn) index and the owner index), and no SN list: the platform's selection names
 * other tenants' devices, and the tenant finds its own in the task's progress rows.
 */
async function showOwnDevices(tx: Executor, rows: Row[], user: AuthUser): Promise<void> {
  const owner = deviceOwner(user);
  if (owner === undefined || rows.length === 0) return;
  const ids = rows.map((r) => String(r.id));
  const counted = await tx.execute(sql`
    select task_id::text as id, count(*)::int as total,
           count(*) filter (where state = 'succeeded')::int as succeeded,
           count(*) filter (where state in ('failed', 'timed_out'))::int as failed
    from ymy_ota_progress where task_id = any(${pgList(ids)}::bigint[]) and device_sn in ${ownedSns(owner)} group by task_id`);
  const byTask = new Map((counted as unknown as { rows: Array<{ id: string; total: number; succeeded: number; failed: number }> }).rows.map((c) => [c.id, c]));
  for (const r of rows) {
    const c = byTask.get(String(r.id));
    Object.assign(r, { total: c?.total ?? 0, succeeded: c?.succeeded ?? 0, failed: c?.failed ?? 0, deviceSns: null });
  }
}

/** A task's progress exported is named after the task (its name, else its id). */
export const otaProgressHooks = (): ResourceHooks => ({
  scope: bySnColumn(otaProgress.deviceSn),
  async exportName(tx, user, filters) {
    const raw = filters.taskId ?? filters.taskId_equal;
    const id = typeof raw === 'string' && /^\d{1,19}$/.test(raw) ? raw : undefined;
    if (!id) return undefined;
    const scope = await byProductColumn(otaTask.productId)!(tx, user); // a tenant names only the tasks it sees
    const [task] = await tx.select({ name: otaTask.taskName }).from(otaTask).where(and(eq(otaTask.id, id), eq(otaTask.isDeleted, 0), ...(scope ? [scope] : [])));
    return task?.name;
  },
});

export const otaTaskHooks = (ctx: AppContext): ResourceHooks => ({
  scope: byProductColumn(otaTask.productId),
  shown: showOwnDevices,
  async beforeSave(tx, values, c) {
    if (c.mode !== 'create') return;
    const [fw] = await tx.select().from(firmware).where(and(eq(firmware.id, String(values.firmwareId)), eq(firmware.isDeleted, 0)));
    if (!fw) throw fieldError('refMissing', c.lang, 'firmwareId', { field: 'firmwareId' });
    if (fw.state !== RELEASE_STATE.published) throw fieldError('otaFirmwareNotPublished', c.lang, 'firmwareId', { version: fw.version });
    const scope = String(values.scope);
    if (scope === 'selected') {
      const sns = parseSnList(values.deviceSns);
      if (sns.length === 0) throw fieldError('otaSnsRequired', c.lang, 'deviceSns');
      if (sns.length > MAX_SELECTED) throw fieldError('otaSnsTooMany', c.lang, 'deviceSns', { max: MAX_SELECTED });
      values.deviceSns = sns.join('\n');
      values.batchId = null;
    } else if (scope === 'batch') {
      if (!values.batchId) throw fieldError('otaBatchRequired', c.lang, 'batchId');
      const [b] = await tx.select({ productId: batch.productId }).from(batch).where(and(eq(batch.id, String(values.batchId)), eq(batch.isDeleted, 0)));
      if (!b || b.productId !== fw.productId) throw fieldError('otaBatchOtherProduct', c.lang, 'batchId');
      values.deviceSns = null;
    } else {
      values.deviceSns = null;
      values.batchId = null;
    }
    Object.assign(values, { productId: fw.productId, toVersion: fw.version, state: 'running', total: 0, succeeded: 0, failed: 0, finishTime: null });
  },
  async afterSave(tx, saved, c) {
    if (c.mode !== 'create') return;
    const sns = saved.scope === 'selected' ? parseSnList(saved.deviceSns) : undefined;
    const total = await enrolDevices(tx, saved, sns, c.lang);
    await tx.update(otaTask).set({ total }).where(eq(otaTask.id, String(saved.id)));
    saved.total = total;
    c.afterCommit(() => {
      ctx.upkeep.changed('ymy_ota_progress', total);
      ctx.services.find(OTA)?.wake();
    });
  },
});

/**
 * Counts per state of a task (the index on (task_id, state) answers it), and its stuck and flagged devices; for a
 * tenant (`owner`), of its own devices only.
 */
async function summarise(tx: Executor, taskId: string, owner: string | undefined) {
  const rows = await tx.execute(sql`
    select state, count(*)::int as n, count(*) filter (where flagged = 1)::int as flagged,
           count(*) filter (where state in ('notified','downloading','downloaded','verified','installing') and last_report_time < now() - interval '5 minutes')::int as stuck
    from ymy_ota_progress where task_id = ${taskId}::bigint ${owner === undefined ? sql`` : sql`and device_sn in ${ownedSns(owner)}`} group by state`);
  const counts: Record<string, number> = Object.fromEntries(OTA_STATES.map((s) => [s, 0]));
  let stuck = 0;
  let flagged = 0;
  for (const r of (rows as unknown as { rows: Array<{ state: string; n: number; flagged: number; stuck: number }> }).rows) {
    counts[r.state] = r.n;
    stuck += r.stuck;
    flagged += r.flagged;
  }
  return { counts, stuck, flagged, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

/** the failed and timed-out devices of a task: those still the task's to retry, and those a newer task took since */
async function failedDevices(tx: Executor, taskId: string): Promise<{ retryable: number; superseded: number }> {
  const res = await tx.execute(sql`
    select count(*) filter (where not s.newer)::int as retryable, count(*) filter (where s.newer)::int as superseded
    from (select exists (select 1 from ymy_ota_progress n where n.device_sn = p.device_sn and n.create_time > p.create_time) as newer
          from ymy_ota_progress p where p.task_id = ${taskId}::bigint and p.state in ('failed', 'timed_out')) s`);
  return (res as unknown as { rows: Array<{ retryable: number; superseded: number }> }).rows[0]!;
}

/**
 * Queues a task's failed and timed-out devices again, spaced by the task's rate, one new attempt each (the attempt
 * counter goes on; the task's automatic retries belong to the first attempts). A device a newer task took since is
 * left alone: its reports now belong to that task. Each retried device's log says who retried it and when.
 */
async function retryFailed(tx: Executor, task: typeof otaTask.$inferSelect, user: AuthUser): Promise<{ retried: number; superseded: number }> {
  const { retryable, superseded } = await failedDevices(tx, task.id);
  if (retryable === 0 && superseded === 0) throw new AppError(400, 'otaNothingToRetry', { name: task.taskName });
  if (retryable === 0) throw new AppError(400, 'otaRetrySuperseded', { name: task.taskName, count: superseded });
  const now = new Date();
  const spacingMs = 60_000 / task.rateLimit;
  await tx.execute(sql`
    with due as (
      select p.id, row_number() over (order by p.device_sn) - 1 as turn
      from ymy_ota_progress p where p.task_id = ${task.id}::bigint and p.state in ('failed', 'timed_out')
        and not exists (select 1 from ymy_ota_progress n where n.device_sn = p.device_sn and n.create_time > p.create_time)),
    moved as (
      update ymy_ota_progress p set state = 'queued', percent = 0, error_code = null, error_message = null, last_report_time = ${now},
        due_time = ${now}::timestamptz + d.turn * (${spacingMs}::double precision * interval '1 millisecond')
      from due d where p.id = d.id
      returning p.device_sn, p.product_id, p.attempt)
    insert into ymy_ota_log (id, device_sn, task_id, product_id, state, percent, message, report_time)
    select ${idBlockSql(retryable)}, device_sn, ${task.id}::bigint, product_id, 'queued', 0,
           ${`retried by ${user.account}: attempt `} || (attempt + 1), ${now} from moved`);
  await tx.update(otaTask).set({ state: 'running', finishTime: null, updateUser: user.userId, updateTime: now }).where(eq(otaTask.id, task.id));
  await recount(tx, [task.id]);
  return { retried: retryable, superseded };
}

export function registerOtaActions(app: FastifyInstance, ctx: AppContext): void {
  const { cancel, summary, retry } = otaTaskResource.actions;
  mountAction(app, ctx, retry, async ({ id }, { tx, user, afterCommit }) => {
    const [task] = await tx.select().from(otaTask).where(and(eq(otaTask.id, id), eq(otaTask.isDeleted, 0)));
    if (!task) throw notFound();
    if (task.state === 'cancelled') throw new AppError(400, 'otaRetryCancelled', { name: task.taskName });
    const [fw] = await tx.select({ state: firmware.state, version: firmware.version }).from(firmware).where(and(eq(firmware.id, task.firmwareId), eq(firmware.isDeleted, 0)));
    if (fw?.state !== RELEASE_STATE.published) throw new AppError(400, 'otaFirmwareNotPublished', { version: fw?.version ?? task.toVersion ?? '' });
    await allowLongStatements(tx, 120_000);
    const out = await retryFailed(tx, task, user);
    afterCommit(() => {
      ctx.upkeep.changed('ymy_ota_log', out.retried);
      ctx.services.find(OTA)?.wake();
    });
    return out;
  });
  mountAction(app, ctx, cancel, async ({ id }, { tx, user, afterCommit }) => {
    const [task] = await tx.select().from(otaTask).where(and(eq(otaTask.id, id), eq(otaTask.isDeleted, 0)));
    if (!task) throw notFound();
    if (task.state !== 'running') throw new AppError(400, 'otaTaskNotRunning', { name: task.taskName });
    await allowLongStatements(tx, 120_000);
    const now = new Date();
    const cancelled = await tx.execute(sql`
      with moved as (
        update ymy_ota_progress set state = 'cancelled', due_time = null, last_report_time = ${now}
        where task_id = ${id}::bigint and state not in ('succeeded', 'failed', 'timed_out', 'cancelled')
        returning device_sn, product_id)
      insert into ymy_ota_log (id, device_sn, task_id, product_id, state, message, report_time)
      select ${idBlockSql(task.total)}, device_sn, ${id}::bigint, product_id, 'cancelled', ${`cancelled by ${user.account}`}, ${now} from moved`);
    await tx.update(otaTask).set({ state: 'cancelled', finishTime: now, updateUser: user.userId, updateTime: now }).where(eq(otaTask.id, id));
    await recount(tx, [id]);
    afterCommit(() => ctx.upkeep.changed('ymy_ota_log', rowsAffected(cancelled)));
    return true;
  });
  mountAction(app, ctx, summary, async ({ id }, { tx, user }) => {
    const scope = await byProductColumn(otaTask.productId)!(tx, user);
    const [task] = await tx.select({ state: otaTask.state }).from(otaTask).where(and(eq(otaTask.id, id), eq(otaTask.isDeleted, 0), ...(scope ? [scope] : [])));
    if (!task) throw notFound();
    return { state: task.state, ...(await summarise(tx, id, deviceOwner(user))) };
  });
}

/** The task's succeeded and failed counts from its rows; a task with no device left to move is finished. */
async function recount(tx: Executor, taskIds: readonly string[]): Promise<void> {
  if (taskIds.length === 0) return;
  await tx.execute(sql`
    update ymy_ota_task t set
      succeeded = c.succeeded, failed = c.failed,
      state = case when t.state = 'running' and c.open = 0 then 'finished' else t.state end,
      finish_time = case when t.state = 'running' and c.open = 0 then now() else t.finish_time end
    from (select task_id,
                 count(*) filter (where state = 'succeeded')::int as succeeded,
                 count(*) filter (where state in ('failed', 'timed_out'))::int as failed,
                 count(*) filter (where state not in ('succeeded', 'failed', 'timed_out', 'cancelled'))::int as open
          from ymy_ota_progress where task_id = any(${pgList([...taskIds])}::bigint[]) group by task_id) c
    where t.id = c.task_id`);
}

export interface OtaReportOutcome {
  applied: number;
  refused: number;
  flagged: number;
}

/**
 * Folds a batch of OTA reports into the devices' progress: one read of the devices' latest progress rows, the
 * moves computed here, one update and one log insert. Resent reports (the same client token) are logged once
 * and move nothing twice: a repeated state is refused as "reported twice" but not logged again.
 */
export async function foldOtaReports(tx: Executor, reports: readonly Uplink[]): Promise<OtaReportOutcome> {
  const outcome: OtaReportOutcome = { applied: 0, refused: 0, flagged: 0 };
  if (reports.length === 0) return outcome;
  const sns = [...new Set(reports.map((r) => r.device.sn))];
  const latest = await tx.execute(sql`
    select distinct on (p.device_sn) p.id, p.task_id, p.device_sn, p.state, p.percent, p.to_version, p.flagged,
           p.attempt <= t.max_retries and t.state = 'running' as retry_left
    from ymy_ota_progress p join ymy_ota_task t on t.id = p.task_id where p.device_sn = any(${pgList(sns)}::text[])
    order by p.device_sn, p.create_time desc, p.id desc`);
  type Progress = {
    id: string; task_id: string; device_sn: string; state: OtaState; percent: number; to_version: string | null; flagged: number; retry_left: boolean;
    changed?: boolean; retry?: boolean; error?: [string, string]; at?: Date;
  };
  const bySn = new Map<string, Progress>();
  for (const r of (latest as unknown as { rows: Progress[] }).rows) bySn.set(r.device_sn, { ...r, id: String(r.id), task_id: String(r.task_id) });
  const logs: Row[] = [];
  const touchedTasks = new Set<string>();
  const fresh = await claimReportTokens(tx, 'ota', reports);
  for (const report of [...reports].sort((a, b) => a.timestamp - b.timestamp)) {
    const p = bySn.get(report.device.sn);
    const at = new Date(report.timestamp);
    const token = report.clientToken?.slice(0, 64) || null;
    // a resent report was folded already (here too, once in a batch): after a retry it would otherwise fail the new attempt
    if (token && !fresh.delete(tokenKey(report.device.sn, token))) continue;
    const params = report.params;
    const version = typeof params.version === 'string' ? params.version.slice(0, 32) : null;
    // the report's own row carries its client token (a resent report is logged once); what the server did about it does not
    const log = (state: string, percent: number | null, message: string | null, ofReport = true) => logs.push({
      id: nextId(), deviceSn: report.device.sn, taskId: p?.task_id ?? null, productId: report.device.productId,
      state: state.slice(0, 16), percent, version, message: message?.slice(0, 255) ?? null, clientToken: ofReport ? token : null, reportTime: at,
    });
    if (report.method === 'report_version') {
      if (p && p.state === 'succeeded' && p.to_version && version && version !== p.to_version && !p.flagged) {
        p.flagged = 1;
        p.changed = true;
        p.at = at;
        outcome.flagged += 1;
        log('succeeded', null, `reported ${version} after succeeding to ${p.to_version}`);
      }
      continue;
    }
    const raw = (params.progress && typeof params.progress === 'object' ? params.progress : params) as Row;
    const to = reportedState(raw.state);
    const percent = raw.percent === undefined ? undefined : Number(raw.percent);
    if (!p || !to) {
      outcome.refused += 1;
      log(String(raw.state ?? 'unknown'), null, !p ? 'refused: no OTA task for this device' : `refused: unknown state ${String(raw.state)}`);
      continue;
    }
    const m = move(p.state, p.percent, to, percent);
    if (!m.ok) {
      outcome.refused += 1;
      log(to, percent ?? null, `refused: ${m.reason}`);
      continue;
    }
    p.state = m.state;
    p.percent = m.percent;
    p.changed = true;
    p.at = at;
    if (m.state === 'failed') p.error = [String(raw.result_code ?? raw.code ?? '').slice(0, 32), String(raw.result_msg ?? raw.message ?? '').slice(0, 255)];
    touchedTasks.add(p.task_id);
    outcome.applied += 1;
    log(m.state, m.percent, m.state === 'failed' ? `failed: ${p.error?.[1] || p.error?.[0] || ''}` : null);
    if (m.state === 'failed' && p.retry_left) {
      // a failure is retried as a timeout is, while the task's retries last: queued again, sent at the next pass
      p.state = 'queued';
      p.percent = 0;
      p.retry = true;
      p.retry_left = false;
      log('queued', 0, 'failed: retry', false);
    }
  }
  const changed = [...bySn.values()].filter((p) => p.changed);
  if (changed.length) {
    const records = changed.map((p) => ({
      id: p.id, state: p.state, percent: p.percent, flagged: p.flagged, retry: p.retry === true, error_code: p.error?.[0] ?? null, error_message: p.error?.[1] ?? null, at: p.at!.toISOString(),
    }));
    await tx.execute(sql`
      update ymy_ota_progress p set state = r.state, percent = r.percent, flagged = r.flagged,
        error_code = coalesce(r.error_code, p.error_code), error_message = coalesce(r.error_message, p.error_message),
        last_report_time = r.at,
        due_time = case when r.retry then now() when r.state in ('succeeded', 'failed', 'timed_out', 'cancelled') then null else p.due_time end
      from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, state text, percent int, flagged smallint, retry boolean, error_code text, error_message text, at timestamptz)
      where p.id = r.id`);
  }
  if (logs.length) await insertRows(tx, otaLog, logs, 5000);
  if (changed.some((p) => isFinal(p.state))) await recount(tx, [...touchedTasks]);
  return outcome;
}

const TICK_MS = 1000;
/** the statement limit of the device work done in the background (folds, the scheduler's passes) */
export const BACKGROUND_TIMEOUT_MS = 120_000;
const PER_TICK = 2000;

/** a device whose OTA turn has come, with what its command needs */
interface Due {
  id: string; task_id: string; device_sn: string; product_id: string; to_version: string;
  file: string; file_size: number; sha256: string; md5: string; module_type: string; cloud_product_id: string | null; device_name: string | null;
}

/**
 * Moves OTA tasks along: notifies the queued devices whose turn has come (their turns were spaced by the task's
 * rate when it was made), retries or times out the devices that went quiet, and finishes tasks with no device
 * left to move. Rows are taken with `for update skip locked`, so several instances never notify a device twice.
 */
export class OtaRunner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private closed = false;

  constructor(private readonly ctx: AppContext, private readonly gateway: () => Gateway | undefined, private readonly onError: (e: unknown) => void) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), TICK_MS);
    this.timer.unref();
  }

  /** runs a tick now (a task was made); a tick already running runs once more after */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tick().catch(this.onError).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** one pass, awaited (tests) */
  async settle(): Promise<void> {
    while (this.running) await this.running;
    await this.tick();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * Expires and claims in one transaction, sends outside any (a send may read a device's key from the database,
   * and the embedded database has one connection: a send waiting on it inside a transaction never returns), then
   * records what was sent in a second one.
   */
  private async tick(): Promise<void> {
    const gw = this.gateway();
    const background = { tenantId: PLATFORM_TENANT, timeoutMs: BACKGROUND_TIMEOUT_MS };
    const claimed = await inTenant(this.ctx.db, background, async (tx) => {
      const touched = new Set<string>();
      await this.expire(tx, touched);
      const due = gw && gw.mode !== 'off' ? await this.claim(tx, touched) : [];
      await recount(tx, [...touched]);
      return due;
    });
    if (!gw || claimed.length === 0) return;
    const at = new Date();
    const sent = await this.send(gw, claimed);
    await inTenant(this.ctx.db, background, (tx) => this.record(tx, claimed, sent, at));
  }

  /** devices quiet past their timeout: queued again while retries are left, else timed out */
  private async expire(tx: Executor, touched: Set<string>): Promise<void> {
    const res = await tx.execute(sql`
      with due as (
        select p.id, p.task_id, p.device_sn, p.product_id, p.attempt, t.max_retries
        from ymy_ota_progress p join ymy_ota_task t on t.id = p.task_id
        where p.due_time <= now() and p.state = any(${pgList(ACTIVE)}::text[]) and t.state = 'running'
        order by p.due_time limit ${PER_TICK} for update of p skip locked),
      moved as (
        update ymy_ota_progress p set
          state = case when d.attempt <= d.max_retries then 'queued' else 'timed_out' end,
          due_time = case when d.attempt <= d.max_retries then now() else null end,
          error_code = case when d.attempt <= d.max_retries then p.error_code else 'timeout' end,
          error_message = case when d.attempt <= d.max_retries then p.error_message else 'no report before the timeout' end,
          last_report_time = now()
        from due d where p.id = d.id
        returning p.task_id, p.device_sn, p.product_id, p.state, p.attempt)
      insert into ymy_ota_log (id, device_sn, task_id, product_id, state, message, report_time)
      select ${idBlockSql(PER_TICK)}, device_sn, task_id, product_id, state,
             case when state = 'queued' then 'timeout: retry ' || attempt else 'timeout' end, now()
      from moved returning task_id`);
    for (const r of (res as unknown as { rows: Array<{ task_id: string }> }).rows) touched.add(String(r.task_id));
  }

  /**
   * The queued devices whose turn has come, taken (notified, due at their timeout, so no other instance takes
   * them and a lost send ends as a timeout); those without IoT credentials fail here.
   */
  private async claim(tx: Executor, touched: Set<string>): Promise<Due[]> {
    const res = await tx.execute(sql`
      with due as (
        select p.id from ymy_ota_progress p join ymy_ota_task t on t.id = p.task_id and t.state = 'running'
        where p.state = 'queued' and p.due_time <= now()
        order by p.due_time limit ${PER_TICK} for update of p skip locked),
      taken as (
        update ymy_ota_progress p set state = 'notified', percent = 0, attempt = p.attempt + 1, last_report_time = now(),
          due_time = now() + t.timeout_minutes * interval '1 minute'
        from due d, ymy_ota_task t where p.id = d.id and t.id = p.task_id
        returning p.id, p.task_id, p.device_sn, p.product_id, t.timeout_minutes, t.to_version, t.firmware_id)
      select k.id, k.task_id, k.device_sn, k.product_id, k.to_version,
             f.file, f.file_size, f.sha256, f.md5, f.module_type, c.cloud_product_id, c.device_name
      from taken k
      join ymy_firmware f on f.id = k.firmware_id
      left join ymy_factory_device d on d.sn = k.device_sn
      left join ymy_cert c on c.id = d.certificate_id and c.is_deleted = 0`);
    const due = (res as unknown as { rows: Due[] }).rows.map((d) => ({ ...d, id: String(d.id), task_id: String(d.task_id) }));
    for (const d of due) touched.add(d.task_id);
    const failed = due.filter((d) => !d.cloud_product_id || !d.device_name).map((d) => ({ id: d.id, code: 'no_cert', message: 'the device has no IoT credentials' }));
    if (failed.length) {
      await tx.execute(sql`
        update ymy_ota_progress p set state = 'failed', due_time = null, error_code = r.code, error_message = r.message, last_report_time = now()
        from json_to_recordset(${JSON.stringify(failed)}::json) as r(id bigint, code text, message text) where p.id = r.id`);
      await this.log(tx, failed.map((f) => ({ id: f.id, state: 'failed', message: f.message })), new Date());
    }
    return due.filter((d) => d.cloud_product_id && d.device_name);
  }

  /** the firmware sent to each claimed device: the ids of those it reached */
  private async send(gw: Gateway, due: readonly Due[]): Promise<Set<string>> {
    const base = this.ctx.config.publicUrl;
    const sent = new Set<string>();
    await Promise.all(due.map(async (d) => {
      const url = d.file.startsWith('/') ? `${base}${d.file}` : d.file;
      const ok = await gw.send({ cloudProductId: d.cloud_product_id!, deviceName: d.device_name! }, 'ota', {
        type: 'update_firmware', taskId: d.task_id, module: d.module_type, version: d.to_version, url, file_size: Number(d.file_size), md5sum: d.md5, sha256: d.sha256,
      }).catch(() => false as const);
      if (ok) sent.add(d.id);
    }));
    return sent;
  }

  /** the sends logged (at the time they were made); a device not reached is queued again for the next pass */
  private async record(tx: Executor, due: readonly Due[], sent: ReadonlySet<string>, at: Date): Promise<void> {
    const unsent = due.filter((d) => !sent.has(d.id)).map((d) => ({ id: d.id }));
    if (unsent.length) {
      await tx.execute(sql`
        update ymy_ota_progress p set state = 'queued', attempt = greatest(p.attempt - 1, 0), due_time = now() + interval '1 second'
        from json_to_recordset(${JSON.stringify(unsent)}::json) as r(id bigint) where p.id = r.id and p.state = 'notified'`);
    }
    if (sent.size) await this.log(tx, [...sent].map((id) => ({ id, state: 'notified', message: null })), at);
  }

  private async log(tx: Executor, rows: ReadonlyArray<{ id: string; state: string; message: string | null }>, at: Date): Promise<void> {
    await tx.execute(sql`
      insert into ymy_ota_log (id, device_sn, task_id, product_id, state, message, report_time)
      select ${idBlockSql(rows.length)}, p.device_sn, p.task_id, p.product_id, r.state, r.message, ${at.toISOString()}::timestamptz
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(id bigint, state text, message text) join ymy_ota_progress p on p.id = r.id`);
  }
}
