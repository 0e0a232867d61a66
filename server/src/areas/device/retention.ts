import { PLATFORM_TENANT } from '@console/contract';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context.js';
import { type Db, inTenant, rowsAffected } from '../../core/db/index.js';
import type { RetentionGroup } from '../../core/db/partitions/retention.js';
import { UPLOADS } from '../../core/uploads.js';
import { type RetentionParam, retentionDaysOf } from '../system/index.js';
import { appLog, faceLog, otaLog, reportToken } from './tables.js';

export const OTA_LOG_RETENTION: RetentionParam = {
  key: 'device.otaLogRetentionDays', defaultDays: 365, name: '升级日志保留天数',
  remark: '设备升级日志保留的天数, 更早的每小时清除 (各设备的升级结果仍在升级进度中); 0 表示永久保留 (days the OTA log is kept; each device\'s outcome stays in the OTA progress; 0 keeps it forever)',
};
export const FACE_LOG_RETENTION: RetentionParam = {
  key: 'device.faceLogRetentionDays', defaultDays: 180, name: '人脸日志保留天数',
  remark: '人脸日志保留的天数, 更早的每小时清除; 0 表示永久保留 (days the face logs are kept; 0 keeps them forever)',
};
export const APP_LOG_RETENTION: RetentionParam = {
  key: 'app.logRetentionDays', defaultDays: 180, name: 'APP 日志保留天数',
  remark: 'APP 上传的日志保留的天数, 更早的每小时连同其文件清除; 0 表示永久保留 (days the app\'s uploaded logs are kept, deleted with their files; 0 keeps them forever)',
};

/**
 * Days a device's client token is kept to recognise a resend: a device resends an unacknowledged message within
 * minutes (device-protocol.md); a week covers one that was offline meanwhile.
 */
export const REPORT_TOKEN_DAYS = 7;
/** app logs removed with their files in one transaction */
const APP_LOG_BATCH = 500;
const TRIM_BATCH = 5000;

/** the report tokens older than REPORT_TOKEN_DAYS deleted, in short batches */
async function trimReportTokens(db: Db, now: Date): Promise<Record<string, number>> {
  const before = new Date(now.getTime() - REPORT_TOKEN_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const n = rowsAffected(await db.execute(sql`
      delete from ${reportToken} where (kind, device_sn, client_token) in (
        select kind, device_sn, client_token from ${reportToken} where create_time < ${before} order by create_time limit ${TRIM_BATCH})`));
    total += n;
    if (n < TRIM_BATCH) break;
  }
  return { ymy_device_report_token: total };
}

/**
 * The app logs older than the cutoff that name a stored file, deleted with their attachments in batches (each a
 * transaction), their bytes deleted once it committed: a month dropped then leaves no file behind.
 */
function appLogsWithFiles(ctx: AppContext) {
  return async (db: Db, cutoff: Date): Promise<Record<string, number>> => {
    const uploads = ctx.services.get(UPLOADS);
    let total = 0;
    for (;;) {
      const { n, removeFiles } = await inTenant(db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: 60_000 }, async (tx) => {
        const gone = (await tx.execute(sql`
          delete from ${appLog} where upload_time < ${cutoff} and (id, upload_time) in (
            select id, upload_time from ${appLog} where upload_time < ${cutoff} and log_file is not null order by upload_time limit ${APP_LOG_BATCH})
          returning tenant_id, log_file`)) as unknown as { rows: Array<{ tenant_id: string; log_file: string }> };
        const byTenant = new Map<string, string[]>();
        for (const r of gone.rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.log_file]);
        const removals = [];
        for (const [tenantId, links] of byTenant) removals.push(await uploads.release(tx, tenantId, links));
        return { n: gone.rows.length, removeFiles: removals };
      });
      for (const remove of removeFiles) await remove();
      total += n;
      if (n < APP_LOG_BATCH) break;
    }
    return { ymy_app_log: total };
  };
}

/**
 * The device area's logs, each partitioned by month of its own time (migration 0038) and kept for its parameter's
 * days: the OTA log (with the client tokens of the reports and events, kept a week), the face log, the app's logs
 * (with their stored files).
 */
export function deviceRetention(ctx: AppContext): RetentionGroup[] {
  return [
    { name: 'OTA log', tables: [{ table: otaLog, key: otaLog.reportTime }], days: (db) => retentionDaysOf(db, OTA_LOG_RETENTION), trim: trimReportTokens },
    { name: 'face log', tables: [{ table: faceLog, key: faceLog.eventTime }], days: (db) => retentionDaysOf(db, FACE_LOG_RETENTION) },
    {
      name: 'app log', tables: [{ table: appLog, key: appLog.uploadTime }], days: (db) => retentionDaysOf(db, APP_LOG_RETENTION),
      removeHolders: appLogsWithFiles(ctx),
    },
  ];
}
