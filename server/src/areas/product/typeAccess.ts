import { PLATFORM_TENANT } from '@console/contract';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { product, productAuth } from './tables.js';

/** The product types the caller's tenant may see: undefined for the platform (every type). */
export async function authorisedTypeIds(tx: Executor, user: AuthUser): Promise<string[] | undefined> {
  if (user.tenantId === PLATFORM_TENANT) return undefined;
  const rows = await tx.select({ typeId: productAuth.typeId }).from(productAuth).where(eq(productAuth.tenantId, user.tenantId));
  return rows.map((r) => r.typeId);
}

/** Rows whose product type column is among the caller's authorised types. */
export function byTypeColumn(column: PgColumn): ResourceHooks['scope'] {
  return async (tx, user) => {
    const ids = await authorisedTypeIds(tx, user);
    if (ids === undefined) return undefined;
    return ids.length ? inArray(column, ids) : sql`false`;
  };
}

/** Rows whose product (column) is of one of the caller's authorised types (batches, devices, manuals). */
export function byProductColumn(column: PgColumn): ResourceHooks['scope'] {
  return async (tx, user): Promise<SQL | undefined> => {
    const ids = await authorisedTypeIds(tx, user);
    if (ids === undefined) return undefined;
    if (ids.length === 0) return sql`false`;
    return inArray(column, tx.select({ id: product.id }).from(product).where(inArray(product.typeId, ids)));
  };
}
