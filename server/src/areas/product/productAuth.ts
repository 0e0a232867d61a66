import { msg, PLATFORM_TENANT } from '@console/contract';
import { productAuthResource, productTypeResource } from '@console/contract/areas/product/index';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { AppError, fieldError } from '../../core/errors.js';
import { nextId, splitList } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { productAuth, productType } from './tables.js';
import { authorisedTypeIds } from './typeAccess.js';

const actions = productAuthResource.actions;

/** A tenant named by its code: a live tenant other than the platform (which sees every type anyway). */
async function tenantOf(tx: Executor, tenantId: string, lang: 'zh' | 'en'): Promise<void> {
  if (tenantId === PLATFORM_TENANT) throw fieldError('tenantUnknownId', lang, 'tenantId', { tenantId });
  const [row] = await tx.select({ id: schema.tenant.id }).from(schema.tenant).where(and(eq(schema.tenant.tenantId, tenantId), eq(schema.tenant.isDeleted, 0)));
  if (!row) throw fieldError('tenantUnknownId', lang, 'tenantId', { tenantId });
}

const liveTypes = eq(productType.isDeleted, 0);

export function registerProductAuthActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, actions.getAuthPt, async (input, { tx, lang }) => {
    await tenantOf(tx, input.tenantId, lang);
    const rows = await tx.select({ typeId: productAuth.typeId }).from(productAuth)
      .innerJoin(productType, and(eq(productType.id, productAuth.typeId), liveTypes))
      .where(eq(productAuth.tenantId, input.tenantId)).orderBy(asc(productType.sort), asc(productType.id));
    return rows.map((r) => r.typeId);
  });

  mountAction(app, ctx, productTypeResource.actions.getAuthPtWithTenant, async (_input, { tx, user }) => {
    const ids = await authorisedTypeIds(tx, user);
    if (ids?.length === 0) return [];
    return tx.select({ id: productType.id, typeName: productType.typeName, typeCode: productType.typeCode }).from(productType)
      .where(ids === undefined ? liveTypes : and(liveTypes, inArray(productType.id, ids)))
      .orderBy(asc(productType.sort), asc(productType.id));
  });

  /** replaces the tenant's types with exactly these (every id a live product type) */
  mountAction(app, ctx, actions.saveAuthPt, async (input, { tx, lang, user }) => {
    await tenantOf(tx, input.tenantId, lang);
    const typeIds = splitList(input.typeIds);
    if (typeIds.length) {
      const found = new Set((await tx.select({ id: productType.id }).from(productType).where(and(liveTypes, inArray(productType.id, typeIds)))).map((r) => r.id));
      const missing = typeIds.filter((id) => !found.has(id));
      if (missing.length) {
        const text = `${msg('refMissing', lang, { field: lang === 'zh' ? '产品类型' : 'Product types' })}: ${missing.join(',')}`;
        throw new AppError(400, 'validationFailed', { detail: text }, { typeIds: text });
      }
    }
    await tx.delete(productAuth).where(eq(productAuth.tenantId, input.tenantId));
    if (typeIds.length) {
      const now = new Date();
      await tx.insert(productAuth).values(typeIds.map((typeId) => ({ id: nextId(), tenantId: input.tenantId, typeId, createUser: user.userId, createTime: now })));
    }
    return true;
  });

  mountAction(app, ctx, actions.getPtTree, async (_input, { tx }) => {
    const types = await tx.select({ id: productType.id, typeName: productType.typeName, typeCode: productType.typeCode }).from(productType)
      .where(liveTypes).orderBy(asc(productType.sort), asc(productType.id));
    return types.map((r) => ({ id: r.id, parentId: '0', title: `${r.typeName} (${r.typeCode})`, key: r.id, value: r.id, hasChildren: false }));
  });
}
