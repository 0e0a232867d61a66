import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export interface RateRule {
  /** name of the limited action, part of the counter key */
  name: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts one call of `rule` for the caller's address (shared across instances through Redis) and
 * refuses with 429 once the window's budget is spent. Public endpoints that create rows or check
 * passwords call it first.
 */
export async function limitByIp(ctx: AppContext, req: FastifyRequest, rule: RateRule): Promise<void> {
  const { count, resetSeconds } = await ctx.kv.hit(`rate:${rule.name}:${req.ip}`, rule.windowSeconds);
  if (count > rule.max) throw new AppError(429, 'tooManyRequests', { seconds: resetSeconds });
}

/** Whose budget a per-user limit spends: the signed-in user (ids are per tenant). */
export interface BudgetOwner {
  tenantId: string;
  userId: string;
}

const userKey = (name: string, who: BudgetOwner) => `rate:${name}:${who.tenantId}:${who.userId}`;

/**
 * Spends one call of `rule` for the user and answers whether it was within the budget, with the seconds
 * until the window ends. Spent before the work and checked after, atomically in the kv store, so parallel
 * calls cannot all squeeze under the limit; refused calls count too.
 */
export async function spendByUser(ctx: AppContext, who: BudgetOwner, rule: RateRule): Promise<{ allowed: boolean; resetSeconds: number }> {
  const { count, resetSeconds } = await ctx.kv.hit(userKey(rule.name, who), rule.windowSeconds);
  return { allowed: count <= rule.max, resetSeconds };
}

/**
 * A per-user budget of an amount (e.g. bytes) per window. The kv store counts by one, so the amount is
 * kept in whole `unit`s and every started unit counts whole (a 10 KB file costs 1 MB of a budget in MB).
 * `max` is in the amount's own measure.
 */
export function amountBudget(ctx: AppContext, rule: RateRule & { unit: number }) {
  const maxUnits = Math.floor(rule.max / rule.unit);
  return {
    /** what is left of the window's budget (0 or more), with the seconds until the window ends */
    async left(who: BudgetOwner): Promise<{ left: number; resetSeconds: number }> {
      const seen = await ctx.kv.peek(userKey(rule.name, who));
      if (!seen) return { left: maxUnits * rule.unit, resetSeconds: rule.windowSeconds };
      return { left: Math.max(0, maxUnits - seen.count) * rule.unit, resetSeconds: seen.resetSeconds };
    },
    async spend(who: BudgetOwner, amount: number): Promise<void> {
      const units = Math.ceil(amount / rule.unit);
      await Promise.all(Array.from({ length: units }, () => ctx.kv.hit(userKey(rule.name, who), rule.windowSeconds)));
    },
  };
}
