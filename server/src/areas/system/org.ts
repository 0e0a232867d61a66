import { deptResource, postResource } from '@console/contract/areas/system/index';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { isId, splitList } from '../../core/ids.js';
import { localName } from '../../core/localName.js';
import type { FastifyInstance } from 'fastify';
import { isPlatformAdmin } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { forbidden } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { DataStep } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { post } from './tables.js';

/** The tenant a picker asks for: the caller's own, or any for the platform's administrators. */
export function optionsTenant(user: AuthUser, asked: string | undefined): string {
  if (!asked || asked === user.tenantId) return user.tenantId;
  if (!isPlatformAdmin(user)) throw forbidden('platformAdminOnly');
  return asked;
}

export function registerOrgRoutes(app: FastifyInstance, ctx: AppContext): void {
  // the "switch department" dialog's options: the departments a user belongs to (the caller's own unless
  // a user administrator asks for another user of the tenant), or the ones named by deptId
  mountAction(app, ctx, deptResource.actions.select, async (input, { user, tx, lang, granted }) => {
    let ids: string[];
    if (input.deptId !== undefined) ids = splitList(input.deptId).filter(isId);
    else {
      const userId = input.userId ?? user.userId;
      if (userId !== user.userId && !granted.has('user')) throw forbidden('forbidden', { code: 'user' });
      const [row] = await tx.select({ deptId: schema.user.deptId }).from(schema.user)
        .where(and(eq(schema.user.id, userId), eq(schema.user.tenantId, user.tenantId), eq(schema.user.isDeleted, 0)));
      ids = splitList(row?.deptId ?? '');
    }
    if (!ids.length) return [];
    const rows = await tx.select({ id: schema.dept.id, deptName: schema.dept.deptName, deptNameEn: schema.dept.deptNameEn, parentId: schema.dept.parentId })
      .from(schema.dept).where(and(inArray(schema.dept.id, ids), eq(schema.dept.tenantId, user.tenantId), eq(schema.dept.isDeleted, 0)))
      .orderBy(asc(schema.dept.sort), asc(schema.dept.id));
    return rows.map((d) => ({ id: d.id, parentId: d.parentId, deptName: localName(d.deptName, d.deptNameEn, lang) }));
  });
  mountAction(app, ctx, postResource.actions.select, async (input, { user, tx }) => {
    const tenantId = optionsTenant(user, input.tenantId);
    const read = (t: Executor) => t.select({ id: post.id, postCode: post.postCode, postName: post.postName })
      .from(post).where(and(eq(post.tenantId, tenantId), eq(post.isDeleted, 0))).orderBy(asc(post.sort), asc(post.id));
    return tenantId === user.tenantId ? read(tx) : crossTenant(tx, tenantId, read);
  });
}

/** Reads another tenant's rows for a platform administrator: the transaction switches to that tenant. */
async function crossTenant<T>(tx: Executor, tenantId: string, read: (tx: Executor) => Promise<T>): Promise<T> {
  await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
  return read(tx);
}

const ORG_DICTS: DictSeed[] = [
  { code: 'org_category', name: '机构类型', nameEn: 'Organisation type', items: [['1', '公司', 'Company'], ['2', '部门', 'Department'], ['3', '小组', 'Team']] },
  { code: 'post_category', name: '岗位类型', nameEn: 'Post category', items: [['1', '高层', 'Senior'], ['2', '中层', 'Middle'], ['3', '基层', 'Junior'], ['4', '其他', 'Other']] },
  { code: 'region_level', name: '区划层级', nameEn: 'Region level', items: [['1', '省份', 'Province'], ['2', '地市', 'City'], ['3', '区县', 'District'], ['4', '乡镇', 'Town'], ['5', '村', 'Village']] },
];

export const ORG_DATA_STEPS: DataStep[] = [
  { name: '0101-org-dicts', run: (tx) => seedDicts(tx, ORG_DICTS) },
];
