import {
  appLogResource, appVersionResource, deviceControlResource, deviceInfoResource, deviceNoticeResource,
  emergencyCodeResource, emergencyUnlockResource, faceLogResource, firmwareResource, otaLogResource,
  otaProgressResource, otaTaskResource,
} from '@console/contract/areas/device/index';
import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGrams, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from '../../core/db/columns.js';

/**
 * Devices in the field. Firmware, OTA, device state and device logs are platform rows (no tenant column),
 * read by tenants through their authorised product types (`product_id` on every row); device control and
 * emergency unlock belong to a tenant (row-level security). SN columns are COLLATE "C" (migration 0017), so
 * their btree indexes serve SN prefixes.
 */

export const firmware = pgTable(
  'ymy_firmware',
  withSearchGrams(firmwareResource, {
    id: id('id').primaryKey(),
    productId: id('product_id').notNull(),
    moduleType: varchar('module_type', { length: 16 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    file: varchar('file', { length: 1000 }).notNull(),
    fileSize: bigint('file_size', { mode: 'number' }),
    sha256: varchar('sha256', { length: 64 }),
    md5: varchar('md5', { length: 32 }),
    releaseNotes: text('release_notes'),
    cloudVendor: integer('cloud_vendor'),
    cloudFirmwareId: varchar('cloud_firmware_id', { length: 128 }),
    state: integer('state').notNull().default(1),
    publishTime: ts('publish_time'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_firmware_version').on(t.productId, t.moduleType, t.version).where(sql`is_deleted = 0`),
    index('ix_firmware_product').on(t.productId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_firmware_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const otaTask = pgTable(
  'ymy_ota_task',
  withSearchGrams(otaTaskResource, {
    id: id('id').primaryKey(),
    taskName: varchar('task_name', { length: 64 }).notNull(),
    firmwareId: id('firmware_id').notNull(),
    productId: id('product_id').notNull(),
    scope: varchar('scope', { length: 16 }).notNull(),
    deviceSns: text('device_sns'),
    batchId: id('batch_id'),
    rateLimit: integer('rate_limit').notNull(),
    timeoutMinutes: integer('timeout_minutes').notNull().default(30),
    maxRetries: integer('max_retries').notNull().default(1),
    toVersion: varchar('to_version', { length: 32 }),
    state: varchar('state', { length: 16 }).notNull().default('running'),
    total: integer('total').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    finishTime: ts('finish_time'),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_ota_task_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_ota_task_running').on(t.id).where(sql`is_deleted = 0 and state = 'running'`),
    index('ix_ota_task_firmware').on(t.firmwareId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * One device of an OTA task: its state machine (contract OTA_STATES). `due_time` is when the scheduler next looks
 * at it: a queued device's turn (the task's rate), a notified or working device's timeout.
 */
export const otaProgress = pgTable(
  'ymy_ota_progress',
  withSearchGrams(otaProgressResource, {
    id: id('id').primaryKey(),
    taskId: id('task_id').notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    productId: id('product_id').notNull(),
    fromVersion: varchar('from_version', { length: 32 }),
    toVersion: varchar('to_version', { length: 32 }),
    state: varchar('state', { length: 16 }).notNull().default('queued'),
    percent: integer('percent').notNull().default(0),
    attempt: integer('attempt').notNull().default(0),
    errorCode: varchar('error_code', { length: 32 }),
    errorMessage: varchar('error_message', { length: 255 }),
    flagged: smallint('flagged').notNull().default(0),
    dueTime: ts('due_time'),
    lastReportTime: ts('last_report_time'),
    createTime: ts('create_time').notNull().defaultNow(),
    // declared by hand: the definition searches deviceSn by prefix, not `like`; these grams serve a substring
    // filter on it through the API, which would otherwise read every row (in the heavy lane)
    deviceSnGrams: searchGrams('device_sn'),
  }),
  (t) => [
    uniqueIndex('uq_ota_progress_device').on(t.taskId, t.deviceSn),
    index('ix_ota_progress_task_state').on(t.taskId, t.state),
    index('ix_ota_progress_task_time').on(t.taskId, t.lastReportTime.desc(), t.id.desc()),
    index('ix_ota_progress_sn').on(t.deviceSn, t.createTime),
    index('ix_ota_progress_time').on(t.lastReportTime.desc(), t.id.desc()),
    index('ix_ota_progress_due').on(t.dueTime).where(sql`due_time is not null`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * Every OTA report and transition, append-only, partitioned by month of report_time (migration 0038); a device's
 * resent report (same client token) is kept once (`reportTokens`).
 */
export const otaLog = pgTable(
  'ymy_ota_log',
  withSearchGrams(otaLogResource, {
    id: id('id').notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    taskId: id('task_id'),
    productId: id('product_id').notNull(),
    state: varchar('state', { length: 16 }).notNull(),
    percent: integer('percent'),
    version: varchar('version', { length: 32 }),
    message: varchar('message', { length: 255 }),
    clientToken: varchar('client_token', { length: 64 }),
    reportTime: ts('report_time').notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    primaryKey({ name: 'ymy_ota_log_pkey', columns: [t.id, t.reportTime] }),
    index('ix_ota_log_time').on(t.reportTime.desc(), t.id.desc()),
    // a tenant's rows are those of its devices: from the owner's devices to their logs (decisions.md, issue 23)
    index('ix_ota_log_sn').on(t.deviceSn, t.reportTime),
    index('ix_ota_log_task').on(t.taskId, t.reportTime.desc()),
    ...searchGramsIndexes(t),
  ],
);

export const appVersion = pgTable(
  'ymy_app_version',
  withSearchGrams(appVersionResource, {
    id: id('id').primaryKey(),
    platform: varchar('platform', { length: 16 }).notNull(),
    versionName: varchar('version_name', { length: 32 }).notNull(),
    versionCode: integer('version_code').notNull(),
    package: varchar('package', { length: 1000 }),
    storeUrl: varchar('store_url', { length: 500 }),
    forceUpdate: smallint('force_update').notNull().default(0),
    releaseNotes: text('release_notes'),
    state: integer('state').notNull().default(1),
    publishTime: ts('publish_time'),
    publishUser: id('publish_user'),
    publishUserName: varchar('publish_user_name', { length: 64 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_app_version_code').on(t.platform, t.versionCode).where(sql`is_deleted = 0`),
    index('ix_app_version_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** the log files the app uploads, partitioned by month of upload_time (migration 0038) */
export const appLog = pgTable(
  'ymy_app_log',
  withSearchGrams(appLogResource, {
    id: id('id').notNull(),
    tenantId: tenantColumn(),
    appUserId: id('app_user_id'),
    phone: varchar('phone', { length: 32 }),
    appVersion: varchar('app_version', { length: 32 }),
    os: varchar('os', { length: 32 }),
    phoneModel: varchar('phone_model', { length: 64 }),
    logFile: varchar('log_file', { length: 1000 }),
    uploadTime: ts('upload_time').notNull().defaultNow(),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    primaryKey({ name: 'ymy_app_log_pkey', columns: [t.id, t.uploadTime] }),
    index('ix_app_log_time').on(t.tenantId, t.uploadTime.desc(), t.id.desc()),
    ...searchGramsIndexes(t),
  ],
);

/** a lock's face events, partitioned by month of event_time (migration 0038); a resent event is kept once (`reportTokens`) */
export const faceLog = pgTable(
  'ymy_face_log',
  withSearchGrams(faceLogResource, {
    id: id('id').notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    productId: id('product_id').notNull(),
    userId: varchar('user_id', { length: 64 }),
    event: varchar('event', { length: 16 }).notNull(),
    snapshot: varchar('snapshot', { length: 1000 }),
    clientToken: varchar('client_token', { length: 64 }),
    eventTime: ts('event_time').notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    primaryKey({ name: 'ymy_face_log_pkey', columns: [t.id, t.eventTime] }),
    index('ix_face_log_time').on(t.eventTime.desc(), t.id.desc()),
    index('ix_face_log_sn').on(t.deviceSn, t.eventTime),
    ...searchGramsIndexes(t),
  ],
);

/**
 * The client tokens of the reports and events a device sent, by kind (`ota`, `face`): a resent one is folded and
 * logged once. The logs are partitioned by time, and a partitioned table's unique keys include its time, which a
 * resend changes: so the key is here. Kept REPORT_TOKEN_DAYS (device/retention.ts).
 */
export const reportToken = pgTable(
  'ymy_device_report_token',
  {
    kind: varchar('kind', { length: 8 }).notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    clientToken: varchar('client_token', { length: 64 }).notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'ymy_device_report_token_pkey', columns: [t.kind, t.deviceSn, t.clientToken] }),
    index('ix_device_report_token_time').on(t.createTime),
  ],
);

/**
 * The state of each device in the field as its reports tell it (the device lookup's rows): one row per device
 * that ever connected, its id the factory device's.
 */
export const deviceStatus = pgTable(
  'ymy_device_status',
  withSearchGrams(deviceInfoResource, {
    id: id('id').primaryKey(),
    sn: varchar('sn', { length: 32 }).notNull(),
    productId: id('product_id').notNull(),
    online: smallint('online').notNull().default(0),
    firmwareVersion: varchar('firmware_version', { length: 32 }),
    versions: jsonb('versions').$type<Record<string, string>>().notNull().default({}),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    /** the device's time of the last property report folded in: an older one never overwrites a newer */
    reportedAt: bigint('reported_at', { mode: 'number' }).notNull().default(0),
    lastSeenTime: ts('last_seen_time'),
    address: varchar('address', { length: 64 }),
    /** what the device itself reports in `report_info` (docs/device-protocol.md §6): MAC as AA:BB:CC:DD:EE:FF, IMEI digits */
    mac: varchar('mac', { length: 17 }),
    imei: varchar('imei', { length: 16 }),
    /**
     * external broker: the clientToken of the signed `online` that opened the device's current session; only a
     * signed `offline` carrying it (its last will or its goodbye) ends that session
     */
    presenceSession: varchar('presence_session', { length: 64 }),
    activationTime: ts('activation_time'),
    activationLat: doublePrecision('activation_lat'),
    activationLng: doublePrecision('activation_lng'),
    activationRegion: varchar('activation_region', { length: 12 }),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    uniqueIndex('uq_device_status_sn').on(t.sn),
    index('ix_device_status_product').on(t.productId, t.sn),
    index('ix_device_status_time').on(t.createTime, t.id),
    index('ix_device_status_online').on(t.productId).where(sql`online = 1`),
    ...searchGramsIndexes(t),
  ],
);

export const deviceControl = pgTable(
  'ymy_device_control',
  withSearchGrams(deviceControlResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    reason: varchar('reason', { length: 255 }).notNull(),
    state: varchar('state', { length: 16 }).notNull().default('pending'),
    result: varchar('result', { length: 255 }),
    clientToken: varchar('client_token', { length: 64 }),
    syncTime: ts('sync_time'),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_device_control_time').on(t.tenantId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_device_control_token').on(t.clientToken).where(sql`client_token is not null`),
    index('ix_device_control_sn').on(t.deviceSn, t.createTime),
    ...searchGramsIndexes(t),
  ],
);

export const deviceNoticeConfig = pgTable(
  'ymy_device_notice_config',
  withSearchGrams(deviceNoticeResource, {
    id: id('id').primaryKey(),
    productId: id('product_id').notNull(),
    noticeType: varchar('notice_type', { length: 32 }).notNull(),
    enabled: smallint('enabled').notNull().default(0),
    channels: varchar('channels', { length: 64 }).notNull().default(''),
    template: varchar('template', { length: 500 }),
    updateUser: id('update_user'),
    updateTime: ts('update_time').notNull().defaultNow(),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    uniqueIndex('uq_device_notice_config').on(t.productId, t.noticeType),
    index('ix_device_notice_config_time').on(t.createTime, t.id),
    ...searchGramsIndexes(t),
  ],
);

export const emergencyUnlock = pgTable(
  'ymy_emergency_unlock',
  withSearchGrams(emergencyUnlockResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    applicant: varchar('applicant', { length: 32 }).notNull(),
    phone: varchar('phone', { length: 32 }).notNull(),
    reason: text('reason').notNull(),
    codeKind: integer('code_kind').notNull(),
    validFrom: ts('valid_from').notNull(),
    validTo: ts('valid_to'),
    codeCount: integer('code_count').notNull().default(1),
    state: varchar('state', { length: 16 }).notNull().default('pending'),
    approver: id('approver'),
    approverName: varchar('approver_name', { length: 64 }),
    approvalTime: ts('approval_time'),
    comment: varchar('comment', { length: 255 }),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_emergency_unlock_time').on(t.tenantId, t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** The codes issued for an approved request (sealed: answered masked; shown once when generated). */
export const emergencyCode = pgTable(
  'ymy_emergency_code',
  withSearchGrams(emergencyCodeResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    unlockId: id('unlock_id').notNull(),
    deviceSn: varchar('device_sn', { length: 32 }).notNull(),
    code: text('code').notNull(),
    kind: integer('kind').notNull(),
    validFrom: ts('valid_from').notNull(),
    validTo: ts('valid_to').notNull(),
    issuerName: varchar('issuer_name', { length: 64 }),
    createUser: id('create_user'),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    index('ix_emergency_code_unlock').on(t.tenantId, t.unlockId, t.createTime),
    index('ix_emergency_code_time').on(t.tenantId, t.createTime, t.id),
    ...searchGramsIndexes(t),
  ],
);
