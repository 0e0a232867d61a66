import { getTableName } from 'drizzle-orm';
import type { Db } from '../../core/db/index.js';
import { schema } from '../../core/db/index.js';
import type { TimePartitionedTable } from '../../core/db/partitions/maintain.js';
import { type PurgeOptions, type PurgeResult, purgeRetained, type RetentionGroup } from '../../core/db/partitions/retention.js';
import { type RetentionParam, retentionDaysOf } from '../system/index.js';

/** The parameter (blade_param) holding how many days logs are kept; 0 or less keeps them forever. */
export const LOG_RETENTION_PARAM = 'log.retentionDays';
export const DEFAULT_RETENTION_DAYS = 90;

export const LOG_RETENTION: RetentionParam = {
  key: LOG_RETENTION_PARAM, defaultDays: DEFAULT_RETENTION_DAYS, name: '日志保留天数',
  remark: '通用、接口、错误日志保留的天数, 更早的每小时清除; 0 表示永久保留 (days the logs are kept; 0 keeps them forever)',
};

const LOG_TABLES = [schema.logUsual, schema.logApi, schema.logError] as const;

/** the logs, partitioned by month of create_time (migration 0036) */
export const LOG_PARTITIONS: readonly TimePartitionedTable[] = LOG_TABLES.map((t) => ({ table: getTableName(t), key: t.createTime.name }));

/** the usual, API and error logs, kept `log.retentionDays` */
export const LOGS: RetentionGroup = {
  name: 'logs',
  tables: LOG_TABLES.map((t) => ({ table: t, key: t.createTime })),
  days: (db) => retentionDaysOf(db, LOG_RETENTION),
};

/** The logs kept to their retention now (the hourly upkeep's work for them). */
export const purgeLogs = (db: Db, opts: PurgeOptions = {}): Promise<PurgeResult> => purgeRetained(db, LOGS, opts);
