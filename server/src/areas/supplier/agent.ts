import { areaAgentResource } from '@console/contract/areas/supplier/index';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Lang } from '@console/contract';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { isUniqueViolation } from '../../core/dbErrors.js';
import { fieldError } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { region } from '../system/index.js';
import { areaAgent, areaAgentRegion } from './tables.js';

const codesOf = (value: unknown): string[] => String(value ?? '').split(',').map((c) => c.trim()).filter(Boolean);

/** 「浙江省」 for a code of the region tree (the code itself when the tree lacks it). */
async function regionLabel(tx: Executor, code: string): Promise<string> {
  const [row] = await tx.select({ name: region.name }).from(region).where(eq(region.code, code));
  return row?.name ?? code;
}

/** The agent (other than `agentId`) holding `code` in the caller's tenant. */
async function holder(tx: Executor, user: AuthUser, code: string, agentId: string) {
  const [row] = await tx.select({ agentName: areaAgent.agentName }).from(areaAgentRegion)
    .innerJoin(areaAgent, and(eq(areaAgent.tenantId, areaAgentRegion.tenantId), eq(areaAgent.id, areaAgentRegion.agentId)))
    .where(and(eq(areaAgentRegion.tenantId, user.tenantId), eq(areaAgentRegion.regionCode, code), ne(areaAgentRegion.agentId, agentId)));
  return row;
}

async function taken(tx: Executor, user: AuthUser, lang: Lang, code: string, agentId: string) {
  const other = await holder(tx, user, code, agentId);
  return fieldError('agentRegionTaken', lang, 'regionCodes', { region: await regionLabel(tx, code), agent: other?.agentName ?? '' });
}

/**
 * The agent's regions after a save: the rows of ymy_area_agent_region replaced by the codes saved. A code another
 * agent holds is refused by name; two saves racing for one region meet at the table's key, and the second is
 * refused the same way (its insert runs in a savepoint, so the owner can still be looked up).
 */
async function holdRegions(tx: Executor, agentId: string, codes: string[], user: AuthUser, lang: Lang): Promise<void> {
  // the engine has taken out a code chosen twice (an `ids` field)
  await tx.delete(areaAgentRegion).where(and(eq(areaAgentRegion.tenantId, user.tenantId), eq(areaAgentRegion.agentId, agentId)));
  for (const code of codes) {
    if (await holder(tx, user, code, agentId)) throw await taken(tx, user, lang, code, agentId);
  }
  try {
    await tx.transaction((sp) => sp.insert(areaAgentRegion).values(codes.map((regionCode) => ({ tenantId: user.tenantId, regionCode, agentId }))).then(() => undefined));
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    for (const code of codes) {
      if (await holder(tx, user, code, agentId)) throw await taken(tx, user, lang, code, agentId);
    }
    throw e;
  }
}

export const areaAgentHooks = (): ResourceHooks => ({
  async beforeSave(_tx, values) {
    if (values.regionCodes !== undefined) values.regionCodes = codesOf(values.regionCodes).join(',');
  },
  async afterSave(tx, saved, c) {
    await holdRegions(tx, String(saved.id), codesOf(saved.regionCodes), c.user, c.lang);
  },
  async afterRemove(tx, ids, user) {
    await tx.delete(areaAgentRegion).where(and(eq(areaAgentRegion.tenantId, user.tenantId), inArray(areaAgentRegion.agentId, ids)));
  },
});

export function registerAgentActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, areaAgentResource.actions.usedRegion, async ({ agentId }, { tx, user }) => {
    const rows = await tx.select({ regionCode: areaAgentRegion.regionCode, agentId: areaAgentRegion.agentId, agentName: areaAgent.agentName })
      .from(areaAgentRegion).innerJoin(areaAgent, and(eq(areaAgent.tenantId, areaAgentRegion.tenantId), eq(areaAgent.id, areaAgentRegion.agentId)))
      .where(and(eq(areaAgentRegion.tenantId, user.tenantId), agentId ? ne(areaAgentRegion.agentId, agentId) : undefined))
      .orderBy(areaAgentRegion.regionCode);
    return rows;
  });
  mountAction(app, ctx, areaAgentResource.actions.allAgent, async (_input, { tx, user }) =>
    tx.select({ id: areaAgent.id, agentName: areaAgent.agentName, regionCodes: areaAgent.regionCodes }).from(areaAgent)
      .where(and(eq(areaAgent.tenantId, user.tenantId), eq(areaAgent.isDeleted, 0)))
      .orderBy(areaAgent.agentName, sql`${areaAgent.id}`));
}
