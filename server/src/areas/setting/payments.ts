import { type Lang, msg, SECRET_MASK, t } from '@console/contract';
import { paymentSettingActions, paymentSettingResource } from '@console/contract/areas/setting/index';
import { PAY_CHANNELS, PAY_NOTIFY_PATH, type PayChannel } from '@console/contract/areas/storage/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { AppError, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { callHere } from '../../core/callHere.js';
import { mountAction, mountOutsideTransaction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { isSealed, secretBox } from '../../core/secrets.js';
import { type ChannelSettings, type SettingsProblem, type SettingsProblems, validateAlipay, validateWechat } from './payment/index.js';
import { paymentSetting } from './tables.js';

type Row = typeof paymentSetting.$inferSelect;

/** the settings' fields as the payment module names them, for each channel */
const FIELDS: Record<PayChannel, Record<string, string>> = {
  wechat: { appId: 'appId', mchId: 'mchId', apiV3Key: 'apiKey', certSerial: 'certSerial', privateKey: 'privateKey', merchantCert: 'merchantCert', platformCert: 'publicKey' },
  alipay: { appId: 'appId', privateKey: 'privateKey', alipayPublicKey: 'publicKey' },
};
const PROBLEM_MESSAGES: Record<SettingsProblem, Parameters<typeof msg>[0]> = {
  required: 'paymentRequired', format: 'paymentFormat', keyUnparsable: 'paymentKeyUnparsable', certUnparsable: 'paymentCertUnparsable',
  keyType: 'paymentKeyType', keyMismatch: 'paymentKeyMismatch', ownKey: 'paymentOwnKey', serialMismatch: 'paymentSerialMismatch',
  certExpired: 'paymentCertExpired', apiV3KeyLength: 'paymentApiV3Key', notifyUrl: 'paymentFormat', url: 'paymentFormat',
};

export const notifyUrlOf = (ctx: AppContext, channel: string, tenantId: string) => `${ctx.config.publicUrl}${PAY_NOTIFY_PATH}/${channel}/${tenantId}`;

/** A channel's settings as the payment module takes them (secrets opened), from a row. */
function settingsOf(ctx: AppContext, row: Pick<Row, 'channel' | 'appId' | 'mchId' | 'apiKey' | 'certSerial' | 'privateKey' | 'merchantCert' | 'publicKey' | 'tenantId'>): ChannelSettings[PayChannel] {
  const box = secretBox(ctx.config.encryptionKey);
  const open = (v: string | null) => (v && isSealed(v) ? box.open(v) ?? '' : v ?? '');
  const notifyUrl = notifyUrlOf(ctx, row.channel, row.tenantId);
  if (row.channel === 'wechat') {
    return {
      appId: row.appId ?? '', mchId: row.mchId ?? '', apiV3Key: open(row.apiKey), certSerial: row.certSerial ?? '', privateKey: open(row.privateKey),
      ...(row.merchantCert ? { merchantCert: row.merchantCert } : {}), platformCert: row.publicKey ?? '', notifyUrl, ...(ctx.config.paymentEndpoints.wechat ? { baseUrl: ctx.config.paymentEndpoints.wechat } : {}),
    };
  }
  return {
    appId: row.appId ?? '', privateKey: open(row.privateKey), alipayPublicKey: row.publicKey ?? '', notifyUrl,
    ...(ctx.config.paymentEndpoints.alipay ? { gateway: ctx.config.paymentEndpoints.alipay } : {}),
  };
}

/** The enabled channel's settings of a tenant, ready for the payment module; undefined when it is not enabled. */
export async function enabledPayment<C extends PayChannel>(ctx: AppContext, tx: Executor, tenantId: string, channel: C): Promise<ChannelSettings[C] | undefined> {
  const [row] = await tx.select().from(paymentSetting)
    .where(and(eq(paymentSetting.tenantId, tenantId), eq(paymentSetting.channel, channel), eq(paymentSetting.enabled, 1), eq(paymentSetting.isDeleted, 0)));
  return row ? (settingsOf(ctx, row) as ChannelSettings[C]) : undefined;
}

/** field → message for what the payment module refuses; the blanks of a channel not enabled pass */
function problemsOf(ctx: AppContext, row: Row, enabled: boolean, lang: Lang): Record<string, string> {
  const channel = row.channel as PayChannel;
  const settings = settingsOf(ctx, row);
  const problems: SettingsProblems = channel === 'wechat' ? validateWechat(settings) : validateAlipay(settings);
  const out: Record<string, string> = {};
  for (const [field, why] of Object.entries(problems)) {
    const ours = FIELDS[channel][field];
    if (!ours) continue;
    if (!enabled && (why === 'required' || !String((row as Record<string, unknown>)[ours] ?? ''))) continue;
    const label = t(paymentSettingResource.fields[ours as keyof typeof paymentSettingResource.fields].label, lang);
    out[ours] = msg(PROBLEM_MESSAGES[why], lang, { field: label });
  }
  return out;
}

export const paymentSettingHooks = (ctx: AppContext): ResourceHooks => ({
  shown: async (_tx, rows) => {
    for (const r of rows) r.notifyUrl = notifyUrlOf(ctx, String(r.channel), String(r.tenantId));
  },
  shownReads: ['channel', 'tenantId'],
  async beforeSave(_tx, values, c) {
    if (c.mode === 'create') throw new AppError(400, 'paymentChannelFixed');
    const merged = { ...c.stored, ...values } as Row;
    const fields = problemsOf(ctx, merged, Number(merged.enabled) === 1, c.lang);
    if (Object.keys(fields).length) throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
  },
});

/** Every tenant has one row per channel, not enabled until its merchant settings are saved. */
export async function paymentChannelsFor(tx: Executor, tenantId: string): Promise<void> {
  await tx.insert(paymentSetting).values(PAY_CHANNELS.map((channel) => ({ id: nextId(), tenantId, channel })))
    .onConflictDoNothing({ target: [paymentSetting.tenantId, paymentSetting.channel] });
}

export function registerPaymentSettings(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, paymentSettingActions.read, async (_input, { tx, user }) => {
    const rows = await tx.select().from(paymentSetting).where(and(eq(paymentSetting.tenantId, user.tenantId), eq(paymentSetting.isDeleted, 0))).orderBy(paymentSetting.channel);
    const mask = (v: string | null) => (v ? SECRET_MASK : '');
    return rows.map((r) => ({
      id: r.id, channel: r.channel, enabled: r.enabled, appId: r.appId ?? '', mchId: r.mchId ?? '', apiKey: mask(r.apiKey), certSerial: r.certSerial ?? '',
      privateKey: mask(r.privateKey), merchantCert: r.merchantCert ?? '', publicKey: r.publicKey ?? '', notifyUrl: notifyUrlOf(ctx, r.channel, r.tenantId),
    }));
  });
  // a save of one channel is the engine's submit of its row: the same checks, sealing and log
  mountOutsideTransaction(app, paymentSettingActions.save, async ({ channel, ...values }, { user, req }) => {
    const [row] = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => tx.select({ id: paymentSetting.id }).from(paymentSetting)
      .where(and(eq(paymentSetting.tenantId, user.tenantId), eq(paymentSetting.channel, channel), eq(paymentSetting.isDeleted, 0))));
    if (!row) throw notFound();
    await callHere(app, req, `${paymentSettingResource.path}/submit`, { ...values, id: row.id });
    return true;
  });
}
