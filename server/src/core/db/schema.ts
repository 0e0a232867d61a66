import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGrams, searchGramsIndex, tenantColumn, ts } from './columns.js';

// ---------- platform-wide tables (no tenant_id) ----------

export const tenant = pgTable(
  'blade_tenant',
  {
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
    tenantIdGrams: searchGrams('tenant_id'),
    tenantNameGrams: searchGrams('tenant_name'),
    linkmanGrams: searchGrams('linkman'),
  },
  (t) => [uniqueIndex('uq_tenant_tenant_id').on(t.tenantId).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_tenant_tenant_id_grams', t.tenantIdGrams),
    searchGramsIndex('ix_tenant_tenant_name_grams', t.tenantNameGrams),
    searchGramsIndex('ix_tenant_linkman_grams', t.linkmanGrams),
  ],
);

export const client = pgTable(
  'blade_client',
  {
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
    clientIdGrams: searchGrams('client_id'),
    authorizedGrantTypesGrams: searchGrams('authorized_grant_types'),
  },
  (t) => [uniqueIndex('uq_client_client_id').on(t.clientId).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_client_client_id_grams', t.clientIdGrams),
    searchGramsIndex('ix_client_authorized_grant_types_grams', t.authorizedGrantTypesGrams),
  ],
);

export const menu = pgTable(
  'blade_menu',
  {
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
    nameGrams: searchGrams('name'),
    codeGrams: searchGrams('code'),
    pathGrams: searchGrams('path'),
  },
  (t) => [uniqueIndex('uq_menu_code').on(t.code).where(sql`is_deleted = 0`), index('ix_menu_parent').on(t.parentId),
    searchGramsIndex('ix_menu_name_grams', t.nameGrams),
    searchGramsIndex('ix_menu_code_grams', t.codeGrams),
    searchGramsIndex('ix_menu_path_grams', t.pathGrams),
  ],
);

export const topMenu = pgTable('blade_top_menu', {
  id: id('id').primaryKey(),
  code: varchar('code', { length: 100 }).notNull(),
  name: varchar('name', { length: 100 }).notNull(),
  nameEn: varchar('name_en', { length: 100 }),
  source: varchar('source', { length: 255 }),
  path: varchar('path', { length: 500 }),
  sort: integer('sort').notNull().default(0),
  ...auditColumns(),
    nameGrams: searchGrams('name'),
    codeGrams: searchGrams('code'),
  },
  (t) => [
    searchGramsIndex('ix_top_menu_name_grams', t.nameGrams),
    searchGramsIndex('ix_top_menu_code_grams', t.codeGrams),
  ],
);

export const topMenuSetting = pgTable(
  'blade_top_menu_setting',
  { topMenuId: id('top_menu_id').notNull(), menuId: id('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.topMenuId, t.menuId] })],
);

export const dict = pgTable(
  'blade_dict',
  {
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
    codeGrams: searchGrams('code'),
    dictValueGrams: searchGrams('dict_value'),
    dictKeyGrams: searchGrams('dict_key'),
  },
  (t) => [
    uniqueIndex('uq_dict_code_key').on(t.code, t.dictKey).where(sql`is_deleted = 0`),
    index('ix_dict_parent').on(t.parentId),
    searchGramsIndex('ix_dict_code_grams', t.codeGrams),
    searchGramsIndex('ix_dict_dict_value_grams', t.dictValueGrams),
    searchGramsIndex('ix_dict_dict_key_grams', t.dictKeyGrams),
  ],
);

export const param = pgTable(
  'blade_param',
  {
    id: id('id').primaryKey(),
    paramName: varchar('param_name', { length: 255 }).notNull(),
    paramKey: varchar('param_key', { length: 255 }).notNull(),
    paramValue: text('param_value').notNull(),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
    paramNameGrams: searchGrams('param_name'),
    paramKeyGrams: searchGrams('param_key'),
  },
  (t) => [
    uniqueIndex('uq_param_key').on(t.paramKey).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_param_name_grams', t.paramNameGrams),
    searchGramsIndex('ix_param_key_grams', t.paramKeyGrams),
  ],
);

// ---------- tenant tables (row-level security on tenant_id) ----------

export const role = pgTable(
  'blade_role',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    parentId: id('parent_id').notNull().default('0'),
    roleName: varchar('role_name', { length: 100 }).notNull(),
    /** the English name; answered to callers in English, who see role_name while it is empty */
    roleNameEn: varchar('role_name_en', { length: 100 }),
    roleAlias: varchar('role_alias', { length: 100 }).notNull(),
    sort: integer('sort').notNull().default(0),
    ...auditColumns(),
    roleNameGrams: searchGrams('role_name'),
    roleAliasGrams: searchGrams('role_alias'),
  },
  (t) => [index('ix_role_tenant').on(t.tenantId),
    searchGramsIndex('ix_role_role_name_grams', t.roleNameGrams),
    searchGramsIndex('ix_role_role_alias_grams', t.roleAliasGrams),
  ],
);

export const roleMenu = pgTable(
  'blade_role_menu',
  { roleId: id('role_id').notNull(), menuId: id('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index('ix_role_menu_menu').on(t.menuId)],
);

export const dept = pgTable(
  'blade_dept',
  {
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
    deptNameGrams: searchGrams('dept_name'),
    fullNameGrams: searchGrams('full_name'),
  },
  (t) => [index('ix_dept_tenant').on(t.tenantId), index('ix_dept_parent').on(t.tenantId, t.parentId).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_dept_dept_name_grams', t.deptNameGrams),
    searchGramsIndex('ix_dept_full_name_grams', t.fullNameGrams),
  ],
);

export const user = pgTable(
  'blade_user',
  {
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
    accountGrams: searchGrams('account'),
    realNameGrams: searchGrams('real_name'),
    phoneGrams: searchGrams('phone'),
  },
  (t) => [
    uniqueIndex('uq_user_account').on(t.tenantId, t.account).where(sql`is_deleted = 0`),
    index('ix_user_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_user_account_grams', t.accountGrams),
    searchGramsIndex('ix_user_real_name_grams', t.realNameGrams),
    searchGramsIndex('ix_user_phone_grams', t.phoneGrams),
  ],
);

export const notice = pgTable(
  'blade_notice',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    title: varchar('title', { length: 255 }).notNull(),
    category: integer('category').notNull(),
    releaseTime: ts('release_time').notNull(),
    content: text('content'),
    ...auditColumns(),
    titleGrams: searchGrams('title'),
  },
  (t) => [
    // DESC NULLS FIRST mirrors ASC NULLS LAST, the defaults of ORDER BY, so one index serves both directions
    index('ix_notice_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_notice_tenant_release').on(t.tenantId, t.releaseTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    index('ix_notice_title_trgm').using('gin', sql`title gin_trgm_ops`),
    searchGramsIndex('ix_notice_title_grams', t.titleGrams),
  ],
);

/**
 * Notices a user has read one by one (the bell). A user's "mark all as read" is a watermark in
 * blade_notice_read_mark instead, so this table stays small: it holds only reads since the last one.
 */
export const noticeRead = pgTable(
  'blade_notice_read',
  {
    tenantId: tenantColumn(),
    userId: id('user_id').notNull(),
    noticeId: id('notice_id').notNull(),
    readTime: ts('read_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'blade_notice_read_pkey', columns: [t.userId, t.noticeId] }),
    // a removed notice's read rows are dropped with it
    index('ix_notice_read_notice').on(t.noticeId),
  ],
);

/**
 * "Mark all as read" per user: every notice that was visible at `readUntil` (created and released by
 * then) counts as read. `category` -1 is the watermark of every category; any other value only covers
 * notices of that category (a tab's "mark all").
 */
export const noticeReadMark = pgTable(
  'blade_notice_read_mark',
  {
    tenantId: tenantColumn(),
    userId: id('user_id').notNull(),
    category: integer('category').notNull(),
    readUntil: ts('read_until').notNull(),
  },
  (t) => [primaryKey({ name: 'blade_notice_read_mark_pkey', columns: [t.userId, t.category] })],
);

/** Uploaded files (the file storage interface keeps the bytes; this is the register). */
export const attach = pgTable(
  'blade_attach',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    domainUrl: varchar('domain_url', { length: 255 }).notNull().default(''),
    link: varchar('link', { length: 1000 }).notNull(),
    /** storage key: tenant/yyyyMMdd/random.ext */
    name: varchar('name', { length: 500 }).notNull(),
    originalName: varchar('original_name', { length: 500 }).notNull(),
    extension: varchar('extension', { length: 16 }).notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    attachSize: bigint('attach_size', { mode: 'number' }).notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    md5: varchar('md5', { length: 32 }),
    /** the object storage configuration (blade_oss) holding the bytes; null: the local disk */
    ossId: id('oss_id'),
    ...auditColumns(),
    originalNameGrams: searchGrams('original_name'),
  },
  (t) => [
    index('ix_attach_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_deleted = 0`),
    uniqueIndex('uq_attach_name').on(t.name),
    searchGramsIndex('ix_attach_original_name_grams', t.originalNameGrams),
  ],
);

/** User agreement and privacy policy texts, per language and version (platform-wide, public). */
export const agreement = pgTable(
  'ymy_agreement',
  {
    id: id('id').primaryKey(),
    type: varchar('type', { length: 16 }).notNull(),
    language: varchar('language', { length: 8 }).notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    content: text('content').notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    publishTime: ts('publish_time'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('uq_agreement_version').on(t.type, t.language, t.version).where(sql`is_deleted = 0`),
    index('ix_agreement_published').on(t.type, t.language, t.publishTime.desc().nullsLast()).where(sql`is_deleted = 0`),
  ],
);

// ---------- authority: packages, scopes, user departments ----------

/** Tenant packages: the menus a tenant may use (platform-wide). */
export const tenantPackage = pgTable(
  'blade_tenant_package',
  {
    id: id('id').primaryKey(),
    packageName: varchar('package_name', { length: 50 }).notNull(),
    /** comma-joined menu ids */
    menuId: text('menu_id').notNull().default(''),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
    packageNameGrams: searchGrams('package_name'),
  },
  (t) => [uniqueIndex('uq_tenant_package_name').on(t.packageName).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_tenant_package_package_name_grams', t.packageNameGrams),
  ],
);

/** Data scopes: a row filter on the lists of the menu they name. */
export const scopeData = pgTable(
  'blade_scope_data',
  {
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
    scopeNameGrams: searchGrams('scope_name'),
    resourceCodeGrams: searchGrams('resource_code'),
  },
  (t) => [uniqueIndex('uq_scope_data_code').on(t.resourceCode).where(sql`is_deleted = 0`), index('ix_scope_data_menu').on(t.menuId),
    searchGramsIndex('ix_scope_data_scope_name_grams', t.scopeNameGrams),
    searchGramsIndex('ix_scope_data_resource_code_grams', t.resourceCodeGrams),
  ],
);

/** API scopes: calls (method and path) that only the roles granted them may make. */
export const scopeApi = pgTable(
  'blade_scope_api',
  {
    id: id('id').primaryKey(),
    menuId: id('menu_id').notNull(),
    resourceCode: varchar('resource_code', { length: 255 }).notNull(),
    scopeName: varchar('scope_name', { length: 255 }).notNull(),
    scopePath: varchar('scope_path', { length: 500 }).notNull(),
    /** 1 any method, 2 GET, 3 POST, 4 PUT, 5 DELETE */
    scopeType: smallint('scope_type').notNull(),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
    scopeNameGrams: searchGrams('scope_name'),
    resourceCodeGrams: searchGrams('resource_code'),
    scopePathGrams: searchGrams('scope_path'),
  },
  (t) => [uniqueIndex('uq_scope_api_code').on(t.resourceCode).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_scope_api_scope_name_grams', t.scopeNameGrams),
    searchGramsIndex('ix_scope_api_resource_code_grams', t.resourceCodeGrams),
    searchGramsIndex('ix_scope_api_scope_path_grams', t.scopePathGrams),
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

/** Single-use captchas (platform-wide: the caller is not signed in yet). */
export const authCaptcha = pgTable('auth_captcha', {
  key: varchar('key', { length: 64 }).primaryKey(),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  expireTime: ts('expire_time').notNull(),
});

// ---------- logs (append-only, tenant-scoped) ----------

const logRequestColumns = () => ({
  id: id('id').primaryKey(),
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
  {
    ...logRequestColumns(),
    logLevel: varchar('log_level', { length: 16 }),
    logId: varchar('log_id', { length: 100 }),
    logData: text('log_data'),
    requestUriGrams: searchGrams('request_uri'),
  },
  (t) => [
    index('ix_log_usual_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_usual_time').on(t.createTime),
    searchGramsIndex('ix_log_usual_request_uri_grams', t.requestUriGrams),
  ],
);

export const logApi = pgTable(
  'blade_log_api',
  {
    ...logRequestColumns(),
    type: varchar('type', { length: 16 }).notNull().default('1'),
    title: varchar('title', { length: 255 }),
    status: integer('status'),
    requestUriGrams: searchGrams('request_uri'),
    titleGrams: searchGrams('title'),
  },
  (t) => [
    index('ix_log_api_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_api_time').on(t.createTime),
    searchGramsIndex('ix_log_api_request_uri_grams', t.requestUriGrams),
    searchGramsIndex('ix_log_api_title_grams', t.titleGrams),
  ],
);

export const logError = pgTable(
  'blade_log_error',
  {
    ...logRequestColumns(),
    type: varchar('type', { length: 16 }).notNull().default('server'),
    stackTrace: text('stack_trace'),
    exceptionName: varchar('exception_name', { length: 255 }),
    message: text('message'),
    fileName: varchar('file_name', { length: 1000 }),
    lineNumber: integer('line_number'),
    requestUriGrams: searchGrams('request_uri'),
    exceptionNameGrams: searchGrams('exception_name'),
  },
  (t) => [
    index('ix_log_error_tenant_time').on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the retention purge deletes the oldest rows of every tenant
    index('ix_log_error_time').on(t.createTime),
    searchGramsIndex('ix_log_error_request_uri_grams', t.requestUriGrams),
    searchGramsIndex('ix_log_error_exception_name_grams', t.exceptionNameGrams),
  ],
);

/** Data steps (seeds, menus of new features) that ran once on this database. */
export const appDataStep = pgTable('app_data_step', {
  name: varchar('name', { length: 200 }).primaryKey(),
  runTime: ts('run_time').notNull().defaultNow(),
});

/** Tables whose rows belong to one tenant: row-level security is enabled on each (see migrations). */
export const TENANT_TABLES = [
  'blade_role', 'blade_dept', 'blade_user', 'blade_notice', 'auth_session', 'auth_refresh_token',
  'blade_log_usual', 'blade_log_api', 'blade_log_error', 'blade_notice_read', 'blade_notice_read_mark',
] as const;
