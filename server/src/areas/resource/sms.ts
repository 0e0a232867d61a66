import { msg } from '@console/contract';
import { RESOURCE_STATUS, SMS_CATEGORY, smsResource } from '@console/contract/areas/resource/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { AppError, badRequest } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import { type SecretBox, secretBox } from '../../core/secrets.js';
import type { SmsSender } from './smsSender.js';
import { mountEnable } from './configs.js';
import { type SmsMessage, type SmsResult, SmsError, sendAliyun, sendTencent } from './smsProviders.js';
import { sms } from './tables.js';

const PHONE = /^\+?\d{5,20}$/;
const MAX_PHONES = 100;

function phonesOf(raw: string | string[], lang: 'zh' | 'en'): string[] {
  const list = (Array.isArray(raw) ? raw : raw.split(',')).map((p) => p.trim()).filter(Boolean);
  if (list.length === 0) throw new AppError(400, 'validationFailed', { detail: msg('required', lang, { field: 'phones' }) }, { phones: msg('required', lang, { field: 'phones' }) });
  if (list.length > MAX_PHONES) throw badRequest('tooManyItems', { field: 'phones', max: MAX_PHONES }, { phones: msg('tooManyItems', lang, { field: 'phones', max: MAX_PHONES }) });
  const bad = list.find((p) => !PHONE.test(p));
  if (bad) throw badRequest('smsPhoneInvalid', { phone: bad.slice(0, 32) }, { phones: msg('smsPhoneInvalid', lang, { phone: bad.slice(0, 32) }) });
  return [...new Set(list)];
}

function paramsOf(raw: string | Record<string, string | number> | undefined, lang: 'zh' | 'en'): Record<string, string> {
  if (raw === undefined || raw === '') return {};
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
  }
  const ok = value !== null && typeof value === 'object' && !Array.isArray(value)
    && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
  if (!ok) throw badRequest('smsParamsInvalid', undefined, { params: msg('smsParamsInvalid', lang) });
  return Object.fromEntries(Object.entries(value as Record<string, string | number>).map(([k, v]) => [k, String(v)]));
}

/** Hides all but the last four digits of a phone number (the usual log is read by the tenant's administrators). */
const maskPhone = (p: string) => (p.length > 4 ? `${'*'.repeat(p.length - 4)}${p.slice(-4)}` : p);

/**
 * SMS: `enable?id` and `endpoint/send-message` (code, phones, params). The message goes through the
 * configuration named by `code`, or the tenant's enabled one. The provider is called after the reading
 * transaction committed, so a slow provider never holds a database connection.
 */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const box = secretBox(ctx.config.encryptionKey);
  mountEnable(app, ctx, smsResource.actions.enable, sms);

  mountAction(app, ctx, smsResource.actions.send, async (input, { user, tx, lang, req, afterCommit }) => {
    const phones = phonesOf(input.phones, lang);
    const params = paramsOf(input.params, lang);
    const row = await configOf(tx, user.tenantId, input.code);
    if (!row) throw badRequest('smsNoConfig', undefined, input.code ? { code: msg('smsNoConfig', lang) } : undefined);
    const answer: SmsResult = { success: false, code: '', msg: '' };
    // the answer is filled once the transaction is over (mountAction answers it after the commit work)
    afterCommit(async () => {
      Object.assign(answer, await deliver(ctx, req, user.tenantId, row, box, phones, params));
    });
    return answer;
  });
}

type SmsRow = typeof sms.$inferSelect;

/** the configuration named by `code`, or the tenant's enabled one */
async function configOf(tx: Executor, tenantId: string, code?: string): Promise<SmsRow | undefined> {
  const [row] = await tx.select().from(sms)
    .where(and(eq(sms.tenantId, tenantId), eq(sms.isDeleted, 0), code ? eq(sms.smsCode, code) : eq(sms.status, RESOURCE_STATUS.enabled))).limit(1);
  return row;
}

/** sends outside any transaction; the log-only category writes the message (phones masked) to the usual log */
async function deliver(ctx: AppContext, req: FastifyRequest, tenantId: string, row: SmsRow, box: SecretBox, phones: string[], params: Record<string, string>): Promise<SmsResult> {
  const message: SmsMessage = {
    accessKey: box.open(row.accessKey) ?? '', secretKey: box.open(row.secretKey) ?? '', appId: row.appId, regionId: row.regionId,
    signName: row.signName, templateId: row.templateId, phones, params,
  };
  try {
    if (row.category === SMS_CATEGORY.aliyun) return await sendAliyun(message, ctx.config);
    if (row.category === SMS_CATEGORY.tencent) return await sendTencent(message, ctx.config);
    const record = { smsCode: row.smsCode ?? '', templateId: row.templateId ?? '', signName: row.signName ?? '', phones: phones.map(maskPhone).join(','), params: JSON.stringify(params) };
    ctx.logs.usual(req, tenantId, 'info', 'sms', { key: 'logSmsRecorded', params: record });
    return { success: true, code: 'OK', msg: 'logged' };
  } catch (e) {
    if (e instanceof SmsError) throw badRequest('smsSendFailed', { detail: e.message });
    throw e;
  }
}

/**
 * SMS for other areas (`SMS`): a message through the tenant's enabled configuration, read in a transaction of its
 * own and sent after it. Undefined when the tenant has no enabled configuration.
 */
export function smsSender(ctx: AppContext): SmsSender {
  const box = secretBox(ctx.config.encryptionKey);
  return {
    async send(tenantId, phones, params, req) {
      const row = await inTenant(ctx.db, { tenantId }, (tx) => configOf(tx, tenantId));
      return row ? deliver(ctx, req, tenantId, row, box, phones, params) : undefined;
    },
  };
}
