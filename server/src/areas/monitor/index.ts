import { type MenuLink, menuDirectory, PLATFORM_TENANT } from '@console/contract';
import { logApiResource, logErrorResource, logUsualResource } from '@console/contract/areas/monitor/index';
import { schema, type Tx } from '../../core/db/index.js';
import { PLATFORM_ADMIN_ROLE } from '../../core/access.js';
import { ensureMenus, grantToRoles, type MenuSeed } from '../../seed/menus.js';
import { TENANT_ADMIN_ROLE } from '../../seed/resourceMenus.js';
import { bind, type DataStep, defineArea } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { apiLogHooks, keepOldEventsAsMessages, USUAL_LOG_DICTS, usualLogHooks } from './reading.js';
import { LOG_RETENTION, LOGS } from './retention.js';
import { and, eq, ne } from 'drizzle-orm';
import { seedRetentionParam } from '../system/index.js';

/** monitor › api_doc: the OpenAPI document's page, opened in a new window (menus.md). */
export const API_DOC_MENU: MenuLink = {
  code: 'api_doc', parent: 'monitor', route: '/api/docs', name: { zh: '接口文档', en: 'API docs' }, sort: 4, icon: 'iconfont iconicon_study', newWindow: true,
};

/**
 * A menu link under its directory, granted to the platform's administrators. When the link is the first
 * entry of its directory, the directory is created here (the resource menus sync then finds it) and granted
 * as the sync would: to the platform's administrators and, for a directory of tenant screens, to each
 * tenant's administrators.
 */
async function seedMenuLink(tx: Tx, link: MenuLink, tenantDirectory: boolean): Promise<void> {
  const seed: MenuSeed = {
    code: link.code, name: link.name.zh, nameEn: link.name.en, path: link.route, source: link.icon, sort: link.sort, isOpen: link.newWindow ? 2 : 1,
  };
  const [existing] = await tx.select({ id: schema.menu.id }).from(schema.menu).where(and(eq(schema.menu.code, link.parent), eq(schema.menu.isDeleted, 0)));
  if (existing) {
    const ids = await ensureMenus(tx, [seed], existing.id);
    await grantToRoles(tx, [ids.get(link.code)!], [PLATFORM_ADMIN_ROLE], [PLATFORM_TENANT]);
    return;
  }
  const dir = menuDirectory(link.parent);
  if (!dir) throw new Error(`menu directory ${link.parent} is not declared in contract/src/menus.ts`);
  const ids = await ensureMenus(tx, [{ code: dir.code, name: dir.name.zh, nameEn: dir.name.en, path: dir.route, source: dir.icon, sort: dir.sort, children: [seed] }]);
  await grantToRoles(tx, [ids.get(link.code)!, ids.get(dir.code)!], [PLATFORM_ADMIN_ROLE], [PLATFORM_TENANT]);
  if (tenantDirectory) {
    const tenants = await tx.selectDistinct({ tenantId: schema.role.tenantId }).from(schema.role)
      .where(and(eq(schema.role.roleAlias, TENANT_ADMIN_ROLE), ne(schema.role.tenantId, PLATFORM_TENANT), eq(schema.role.isDeleted, 0)));
    if (tenants.length) await grantToRoles(tx, [ids.get(dir.code)!], [TENANT_ADMIN_ROLE], tenants.map((r) => r.tenantId));
  }
}

const LOG_DICTS: DictSeed[] = [
  { code: 'log_api_type', name: '接口日志结果', nameEn: 'API log outcome', items: [['1', '成功', 'Succeeded'], ['2', '失败', 'Failed']] },
  { code: 'log_error_type', name: '错误日志来源', nameEn: 'Error log source', items: [['server', '服务端', 'Server'], ['web', '前端', 'Console']] },
];

const LOG_DATA_STEPS: DataStep[] = [
  { name: '0300-log-dicts', run: (tx) => seedDicts(tx, LOG_DICTS) },
  { name: '0301-log-retention-param', run: (tx) => seedRetentionParam(tx, LOG_RETENTION) },
  // the monitor directory also holds the tenants' own log screens
  { name: '0302-api-doc-menu', run: (tx) => seedMenuLink(tx, API_DOC_MENU, true) },
  { name: '0303-usual-log-dicts', run: (tx) => seedDicts(tx, USUAL_LOG_DICTS) },
  { name: '0304-usual-log-messages', run: keepOldEventsAsMessages },
];

/**
 * blade-log: the usual, API and error logs, read-only (list newest first, detail); a tenant reads its own,
 * the platform's administrators any tenant's (`tenantId`). The logs are partitioned by month: at start and every
 * hour the months ahead are made and rows older than `log.retentionDays` purged (whole months dropped; core's
 * RetentionSchedule).
 */
export const monitorArea = defineArea({
  name: 'monitor',
  resources: [
    bind(logUsualResource, schema.logUsual, usualLogHooks),
    bind(logApiResource, schema.logApi, apiLogHooks),
    bind(logErrorResource, schema.logError),
  ],
  retention: () => [LOGS],
  dataSteps: LOG_DATA_STEPS,
});
