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

/**
 * A budget of failures per address (e.g. wrong passwords): `check` refuses once it is spent, `fail`
 * spends one. Successes cost nothing, so a busy office behind one address is not slowed down.
 */
export function failureBudget(ctx: AppContext, rule: RateRule) {
  const key = (req: FastifyRequest) => `rate:${rule.name}:${req.ip}`;
  return {
    /** seconds until the budget is back when it is spent, else null */
    async spentFor(req: FastifyRequest): Promise<number | null> {
      const seen = await ctx.kv.peek(key(req));
      return seen && seen.count >= rule.max ? seen.resetSeconds : null;
    },
    async fail(req: FastifyRequest): Promise<void> {
      await ctx.kv.hit(key(req), rule.windowSeconds);
    },
  };
}
