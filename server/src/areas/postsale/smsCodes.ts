import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Code } from '@console/contract';
import type { SmsPurpose } from '@console/contract/areas/postsale/index';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { limitByIp } from '../../core/rateLimit.js';
import { SMS } from '../resource/index.js';

/** a code is good for five minutes, for five tries */
export const SMS_CODE_TTL_SECONDS = 300;
const MAX_TRIES = 5;
/** one code a minute per phone; ten a day per phone; thirty an hour per address */
const RESEND_SECONDS = 60;
const PER_PHONE_PER_DAY = 10;
const PER_ADDRESS_PER_HOUR = 30;

const digest = (code: string) => createHash('sha256').update(code).digest();
const keyOf = (kind: string, purpose: SmsPurpose, tenantId: string, phone: string) => `sms:${kind}:${purpose}:${tenantId}:${phone}`;

/**
 * Sends a six-digit code to the phone through the tenant's SMS configuration (template parameter `code`). Only
 * its digest is kept, in the kv store, so every instance can check it. The address and the phone each have a
 * budget: a script cannot make the vendor pay for messages to a list of numbers.
 */
export async function sendSmsCode(ctx: AppContext, req: FastifyRequest, tenantId: string, phone: string, purpose: SmsPurpose): Promise<{ seconds: number }> {
  await limitByIp(ctx, req, { name: 'app-sms', max: PER_ADDRESS_PER_HOUR, windowSeconds: 3600 });
  const gap = await ctx.kv.hit(keyOf('gap', purpose, tenantId, phone), RESEND_SECONDS);
  if (gap.count > 1) throw new AppError(Code.TOO_MANY, 'smsCodeTooSoon', { seconds: gap.resetSeconds });
  const day = await ctx.kv.hit(`sms:day:${tenantId}:${phone}`, 86_400);
  if (day.count > PER_PHONE_PER_DAY) throw new AppError(Code.TOO_MANY, 'tooManyRequests', { seconds: day.resetSeconds });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await ctx.kv.set(keyOf('code', purpose, tenantId, phone), digest(code).toString('hex'), SMS_CODE_TTL_SECONDS);
  await ctx.kv.del(keyOf('try', purpose, tenantId, phone));
  const sent = await ctx.services.get(SMS).send(tenantId, [phone], { code }, req).catch(async (e: unknown) => {
    await ctx.kv.del(keyOf('code', purpose, tenantId, phone));
    throw e;
  });
  if (!sent) {
    await ctx.kv.del(keyOf('code', purpose, tenantId, phone));
    await ctx.kv.unhit(keyOf('gap', purpose, tenantId, phone));
    throw new AppError(400, 'smsNotConfigured');
  }
  return { seconds: RESEND_SECONDS };
}

/**
 * Takes the phone's code for the purpose: true once, when it matches. A wrong code spends one of its five tries;
 * the fifth wrong one voids it.
 */
export async function takeSmsCode(ctx: AppContext, tenantId: string, phone: string, purpose: SmsPurpose, code: string): Promise<boolean> {
  const key = keyOf('code', purpose, tenantId, phone);
  const stored = await ctx.kv.get(key);
  if (!stored) return false;
  const tries = await ctx.kv.hit(keyOf('try', purpose, tenantId, phone), SMS_CODE_TTL_SECONDS);
  const expected = Buffer.from(stored, 'hex');
  const good = tries.count <= MAX_TRIES && expected.length === 32 && timingSafeEqual(expected, digest(code));
  if (good || tries.count >= MAX_TRIES) await ctx.kv.del(key);
  return good;
}
