import { batchResource } from '@console/contract/areas/production/index';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { mountAction } from '../../core/resource/actions.js';
import { product, productModel, productType, project, byTypeColumn } from '../product/index.js';

const actions = batchResource.actions;

/**
 * The factory tool's catalogue (`pt-type`, `pt-model`, `project`, `product` under /sc|/tc/ymy-ipc/back): what a
 * batch can be made of, as `{ id, name, code }`, limited to the product types the caller's tenant may see.
 */
export function registerCatalogueActions(app: FastifyInstance, ctx: AppContext): void {
  const typeScope = byTypeColumn(productType.id)!;
  const modelScope = byTypeColumn(productModel.typeId)!;
  const productScope = byTypeColumn(product.typeId)!;
  const where = (...conds: Array<SQL | undefined>) => and(...conds.filter((c): c is SQL => c !== undefined));

  mountAction(app, ctx, actions.ptType, async (_input, { tx, user }) =>
    tx.select({ id: productType.id, name: productType.typeName, code: productType.typeCode }).from(productType)
      .where(where(eq(productType.isDeleted, 0), await typeScope(tx, user))).orderBy(asc(productType.sort), asc(productType.id)).limit(1000));

  mountAction(app, ctx, actions.ptModel, async (input, { tx, user }) =>
    tx.select({ id: productModel.id, name: productModel.modelName, code: productModel.modelCode, typeId: productModel.typeId }).from(productModel)
      .where(where(eq(productModel.isDeleted, 0), input.typeId ? eq(productModel.typeId, input.typeId) : undefined, await modelScope(tx, user)))
      .orderBy(asc(productModel.modelCode)).limit(1000));

  mountAction(app, ctx, actions.project, async (input, { tx }) =>
    tx.select({ id: project.id, name: project.projectName, code: project.projectCode }).from(project)
      .where(where(eq(project.isDeleted, 0), input.modelId ? eq(project.modelId, input.modelId) : undefined))
      .orderBy(asc(project.projectCode)).limit(1000));

  mountAction(app, ctx, actions.product, async (input, { tx, user }) =>
    tx.select({
      id: product.id, name: product.productName, code: product.productCode, typeId: product.typeId, modelId: product.modelId,
      cloudVendor: product.cloudVendor, cloudProductId: product.cloudProductId,
    }).from(product)
      .where(where(eq(product.isDeleted, 0), input.typeId ? eq(product.typeId, input.typeId) : undefined, input.modelId ? eq(product.modelId, input.modelId) : undefined, await productScope(tx, user)))
      .orderBy(asc(product.productCode)).limit(1000));
}
