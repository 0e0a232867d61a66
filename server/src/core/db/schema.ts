import { apiScopeResource, dataScopeResource, roleResource } from '@console/contract/areas/authority/index';
import { logApiResource, logErrorResource, logUsualResource } from '@console/contract/areas/monitor/index';
import {
  clientResource, deptResource, dictResource, menuResource, tenantPackageResource, tenantResource, topMenuResource, userResource,
} from '@console/contract/areas/system/index';
import type { MessageRef } from '@console/contract';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, ts, withSearchGrams } from './columns.js';

// ---------- platform-wide tables (no tenant_id) ----------

export const tenant = pgTable(
  'blade_tenant',
  withSearchGrams(tenantResource, {
    id: id('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    tenantName: varchar('tenant_name', { length: 100 }).notNull(),
    domain: varchar('domain', { length: 255 }),
    backgroundUrl: varchar('background_url', { length: 1000 }),
    linkman: varchar('linkman', { length: 50 }),
    contactNumber: varchar('contact_number', { length: 30 }),
    address: varchar('address', { length: 255 }),
    accountNumber: integer('account_number').notNull().default(-1),
    expireTime: ts('expire_time'),
    packageId: id('package_id'),
    datasourceId: id('datasource_id'),
    licenseKey: varchar('license_key', { length: 1000 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_tenant_tenant_id').on(t.tenantId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const client = pgTable(
  'blade_client',
  withSearchGrams(clientResource, {
    id: id('id').primaryKey(),
    clientId: varchar('client_id', { length: 48 }).notNull(),
    /** sha-256 of the secret; the secret itself is never stored */
    clientSecret: varchar('client_secret', { length: 256 }).notNull(),
    resourceIds: varchar('resource_ids', { length: 256 }),
    scope: varchar('scope', { length: 256 }).notNull().default('all'),
    authorizedGrantTypes: varchar('authorized_grant_types', { length: 256 }).notNull(),
    webServerRedirectUri: varchar('web_server_redirect_uri', { length: 256 }),
    authorities: varchar('authorities', { length: 256 }),
    accessTokenValidity: integer('access_token_validity').notNull().default(3600),
    refreshTokenValidity: integer('refresh_token_validity').notNull().default(604800),
    additionalInformation: varchar('additional_information', { length: 4096 }),
    autoapprove: varchar('autoapprove', { length: 256 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_client_client_id').on(t.clientId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const menu = pgTable(
  'blade_menu',
  withSearchGrams(menuResource, {
    id: id('id').primaryKey(),
    parentId: id('parent_id').notNull().default('0'),
    code: varchar('code', { length: 100 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    nameEn: varchar('name_en', { length: 100 }),
    alias: varchar('alias', { length: 100 }).notNull().default('menu'),
    path: varchar('path', { length: 500 }),
    source: varchar('source', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    category: smallint('category').notNull().default(1),
    action: smallint('action').notNull().default(0),
    isOpen: smallint('is_open').notNull().default(1),
    component: varchar('component', { length: 255 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_menu_code').on(t.code).where(sql`is_deleted = 0`), index('ix_menu_parent').on(t.parentId),
    ...searchGramsIndexes(t),
  ],
);

export const topMenu = pgTable('blade_top_menu', withSearchGrams(topMenuResource, {
  id: id('id').primaryKey(),
  code: varchar('code', { length: 100 }).notNull(),
  name: varchar('name', { length: 100 }).notNull(),
  nameEn: varchar('name_en', { length: 100 }),
  source: varchar('source', { length: 255 }),
  path: varchar('path', { length: 500 }),
  sort: integer('sort').notNull().default(0),
  ...auditColumns(),
  }),
  (t) => [
    ...searchGramsIndexes(t),
  ],
);

/**
 * The menus each top menu shows: written by authority (the top menu grant), read by system (the menu routes),
 * so it stays here beside its top menu rather than in one of them (authority already reads system's param).
 */
export const topMenuSetting = pgTable(
  'blade_top_menu_setting',
  { topMenuId: id('top_menu_id').notNull(), menuId: id('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.topMenuId, t.menuId] })],
);

export const dict = pgTable(
  'blade_dict',
  withSearchGrams(dictResource, {
    id: id('id').primaryKey(),
    parentId: id('parent_id').notNull().default('0'),
    code: varchar('code', { length: 100 }).notNull(),
    dictKey: varchar('dict_key', { length: 100 }).notNull(),
    dictValue: varchar('dict_value', { length: 255 }).notNull(),
    dictValueEn: varchar('dict_value_en', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 500 }),
    isSealed: smallint('is_sealed').notNull().default(0),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_dict_code_key').on(t.code, t.dictKey).where(sql`is_deleted = 0`),
    index('ix_dict_parent').on(t.parentId),
    ...searchGramsIndexes(t),
  ],
);

// ---------- tenant tables (row-level security on tenant_id) ----------

export const role = pgTable(
  'blade_role',
  withSearchGrams(roleResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    parentId: id('parent_id').notNull().default('0'),
    roleName: varchar('role_name', { length: 100 }).notNull(),
    /** the English name; answered to callers in English, who see role_name while it is empty */
    roleNameEn: varchar('role_name_en', { length: 100 }),
    roleAlias: varchar('role_alias', { length: 100 }).notNull(),
    sort: integer('sort').notNull().default(0),
    ...auditColumns(),
  }),
  (t) => [index('ix_role_tenant').on(t.tenantId),
    ...searchGramsIndexes(t),
  ],
);

export const roleMenu = pgTable(
  'blade_role_menu',
  { roleId: id('role_id').notNull(), menuId: id('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index('ix_role_menu_menu').on(t.menuId)],
);

export const dept = pgTable(
  'blade_dept',
  withSearchGrams(deptResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    parentId: id('parent_id').notNull().default('0'),
    ancestors: varchar('ancestors', { length: 2000 }).notNull().default('0'),
    deptName: varchar('dept_name', { length: 100 }).notNull(),
    /** the English name; answered to callers in English, who see dept_name while it is empty */
    deptNameEn: varchar('dept_name_en', { length: 100 }),
    fullName: varchar('full_name', { length: 255 }),
    deptCategory: smallint('dept_category').notNull().default(1),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [index('ix_dept_tenant').on(t.tenantId), index('ix_dept_parent').on(t.tenantId, t.parentId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const user = pgTable(
  'blade_user',
  withSearchGrams(userResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    code: varchar('code', { length: 32 }),
    account: varchar('account', { length: 64 }).notNull(),
    /** argon2id over the client's MD5 hex; never serialised (the user resource's write-only `password` field is not this column: its hook stores the hash here) */
    passwordHash: varchar('password', { length: 255 }).notNull(),
    name: varchar('name', { length: 64 }),
    realName: varchar('real_name', { length: 64 }),
    avatar: varchar('avatar', { length: 1000 }),
    email: varchar('email', { length: 128 }),
    phone: varchar('phone', { length: 32 }),
    birthday: ts('birthday'),
    sex: smallint('sex'),
    roleId: varchar('role_id', { length: 1000 }).notNull().default(''),
    deptId: varchar('dept_id', { length: 1000 }).notNull().default(''),
    postId: varchar('post_id', { length: 1000 }).notNull().default(''),
    userType: smallint('user_type').notNull().default(1),
    /** platform-specific settings of the user (update-platform), JSON or text */
    userExt: text('user_ext'),
    /** 1: the password is an initial or reset one, to be changed at the next sign-in */
    passwordReset: smallint('password_reset').notNull().default(0),
    loginFailCount: integer('login_fail_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_user_account').on(t.tenantId, t.account).where(sql`is_deleted = 0`),
    index('ix_user_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/**
 * The departments of each user, one row per pair, kept from blade_user.dept_id (a comma list, as BladeX
 * stores it): the user list by department subtree reads it through its index instead of every user.
 */
export const userDept = pgTable(
  'blade_user_dept',
  {
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    userId: id('user_id').notNull(),
    deptId: id('dept_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deptId] }), index('ix_user_dept_dept').on(t.tenantId, t.deptId, t.userId)],
);

// ---------- authority: packages, scopes ----------

/** Tenant packages: the menus a tenant may use (platform-wide). */
export const tenantPackage = pgTable(
  'blade_tenant_package',
  withSearchGrams(tenantPackageResource, {
    id: id('id').primaryKey(),
    packageName: varchar('package_name', { length: 50 }).notNull(),
    /** comma-joined menu ids */
    menuId: text('menu_id').notNull().default(''),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_tenant_package_name').on(t.packageName).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Data scopes: a row filter on the lists of the menu they name. */
export const scopeData = pgTable(
  'blade_scope_data',
  withSearchGrams(dataScopeResource, {
    id: id('id').primaryKey(),
    menuId: id('menu_id').notNull(),
    resourceCode: varchar('resource_code', { length: 255 }).notNull(),
    scopeName: varchar('scope_name', { length: 255 }).notNull(),
    scopeColumn: varchar('scope_column', { length: 255 }).notNull(),
    /** 1 all, 2 own, 3 own department, 4 own department and below, 5 custom departments */
    scopeType: smallint('scope_type').notNull(),
    scopeValue: text('scope_value'),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_scope_data_code').on(t.resourceCode).where(sql`is_deleted = 0`), index('ix_scope_data_menu').on(t.menuId),
    ...searchGramsIndexes(t),
  ],
);

/** API scopes: calls (method and path) that only the roles granted them may make. */
export const scopeApi = pgTable(
  'blade_scope_api',
  withSearchGrams(apiScopeResource, {
    id: id('id').primaryKey(),
    menuId: id('menu_id').notNull(),
    resourceCode: varchar('resource_code', { length: 255 }).notNull(),
    scopeName: varchar('scope_name', { length: 255 }).notNull(),
    scopePath: varchar('scope_path', { length: 500 }).notNull(),
    /** 1 any method, 2 GET, 3 POST, 4 PUT, 5 DELETE */
    scopeType: smallint('scope_type').notNull(),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [uniqueIndex('uq_scope_api_code').on(t.resourceCode).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Scopes granted to roles (category 1 data, 2 API), as blade_role_menu grants menus. */
export const roleScope = pgTable(
  'blade_role_scope',
  {
    roleId: id('role_id').notNull(),
    scopeId: id('scope_id').notNull(),
    scopeCategory: integer('scope_category').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.scopeId] }), index('ix_role_scope_scope').on(t.scopeId)],
);

// ---------- sessions ----------

/** One sign-in: access tokens carry its id (sid), so revoking it stops them at once. */
export const authSession = pgTable(
  'auth_session',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    userId: id('user_id').notNull(),
    clientId: varchar('client_id', { length: 48 }).notNull(),
    createTime: ts('create_time').notNull().defaultNow(),
    lastRefreshTime: ts('last_refresh_time'),
    expireTime: ts('expire_time').notNull(),
    revokedTime: ts('revoked_time'),
    revokeReason: varchar('revoke_reason', { length: 64 }),
    remoteIp: varchar('remote_ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 500 }),
  },
  (t) => [index('ix_session_user').on(t.tenantId, t.userId), index('ix_session_revoked').on(t.revokedTime)],
);

/** Opaque refresh tokens, stored as sha-256; single use (a reused one revokes its session). */
export const authRefreshToken = pgTable(
  'auth_refresh_token',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    sessionId: id('session_id').notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    expireTime: ts('expire_time').notNull(),
    usedTime: ts('used_time'),
    createTime: ts('create_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('uq_refresh_hash').on(t.tokenHash), index('ix_refresh_session').on(t.sessionId)],
);

// ---------- logs (append-only, tenant-scoped) ----------
// Partitioned by month of create_time (migration 0036, core/db/partitions, docs/decisions.md "Time-partitioned
// logs"): a partitioned table's keys include its partition key, so a log's primary key is (id, create_time).

const logRequestColumns = () => ({
  id: id('id').notNull(),
  tenantId: tenantColumn(),
  serviceId: varchar('service_id', { length: 64 }),
  serverHost: varchar('server_host', { length: 255 }),
  serverIp: varchar('server_ip', { length: 255 }),
  env: varchar('env', { length: 32 }),
  method: varchar('method', { length: 16 }),
  requestUri: varchar('request_uri', { length: 2000 }),
  userAgent: varchar('user_agent', { length: 1000 }),
  remoteIp: varchar('remote_ip', { length: 64 }),
  methodClass: varchar('method_class', { length: 255 }),
  methodName: varchar('method_name', { length: 255 }),
  params: text('params'),
  time: integer('time'),
  createBy: varchar('create_by', { length: 64 }),
  createTime: ts('create_time').notNull().defaultNow(),
});

export const logUsual = pgTable(
  'blade_log_usual',
  withSearchGrams(logUsualResource, {
    ...logRequestColumns(),
    logLevel: varchar('log_level', { length: 16 }),
    logId: varchar('log_id', { length: 100 }),
    logData: text('log_data'),
    /** the event as a message of the contract (key and parameters), shown in the reader's language; logData holds it in Chinese */
    message: jsonb('message').$type<MessageRef>(),
  }),
  (t) => [
    primaryKey({ name: 'blade_log_usual_pkey', columns: [t.id, t.createTime] }),
    index('ix_log_usual_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_usual_time').on(t.createTime),
    ...searchGramsIndexes(t),
  ],
);

export const logApi = pgTable(
  'blade_log_api',
  withSearchGrams(logApiResource, {
    ...logRequestColumns(),
    type: varchar('type', { length: 16 }).notNull().default('1'),
    title: varchar('title', { length: 255 }),
    status: integer('status'),
  }),
  (t) => [
    primaryKey({ name: 'blade_log_api_pkey', columns: [t.id, t.createTime] }),
    index('ix_log_api_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_api_time').on(t.createTime),
    ...searchGramsIndexes(t),
  ],
);

export const logError = pgTable(
  'blade_log_error',
  withSearchGrams(logErrorResource, {
    ...logRequestColumns(),
    type: varchar('type', { length: 16 }).notNull().default('server'),
    stackTrace: text('stack_trace'),
    exceptionName: varchar('exception_name', { length: 255 }),
    message: text('message'),
    fileName: varchar('file_name', { length: 1000 }),
    lineNumber: integer('line_number'),
  }),
  (t) => [
    primaryKey({ name: 'blade_log_error_pkey', columns: [t.id, t.createTime] }),
    index('ix_log_error_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_error_time').on(t.createTime),
    ...searchGramsIndexes(t),
  ],
);

/** Data steps (seeds, menus of new features) that ran once on this database. */
export const appDataStep = pgTable('app_data_step', {
  name: varchar('name', { length: 200 }).primaryKey(),
  runTime: ts('run_time').notNull().defaultNow(),
});

/**
 * The server processes sharing this database: each holds a snowflake worker id by lease (its heartbeat) and
 * hands it back when it stops; a lease not renewed in time may be taken by a starting instance.
 */
export const appInstance = pgTable('app_instance', {
  workerId: smallint('worker_id').primaryKey(),
  instanceId: varchar('instance_id', { length: 64 }).notNull(),
  host: varchar('host', { length: 255 }).notNull(),
  pid: integer('pid').notNull(),
  version: varchar('version', { length: 64 }).notNull(),
  /** HMAC of the keys the instance signs and seals with: instances of one fleet must hold the same */
  keysDigest: varchar('keys_digest', { length: 64 }).notNull(),
  startTime: ts('start_time').notNull().defaultNow(),
  heartbeatTime: ts('heartbeat_time').notNull().defaultNow(),
});
