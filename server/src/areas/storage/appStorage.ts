import { type Currency, formatMoney, isCurrency, type Lang } from '@console/contract';
import { BINDING_ROLE } from '@console/contract/areas/postsale/index';
import { PAY_CHANNELS, PAY_STATE, type PayChannel, STORAGE_APP_API } from '@console/contract/areas/storage/index';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppCaller, AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { AppError, fieldError } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { formatDateTime } from '../../core/time.js';
import { mountAppCall, mountAppCallOutside, postsaleDevice } from '../postsale/index.js';
import { product } from '../product/index.js';
import { createPayment, enabledPayment, PaymentSettingsError } from '../setting/index.js';
import { logOrder } from './orders.js';
import { keptSince } from './period.js';
import { storageOrder, storagePrice } from './tables.js';

const snField = () => z.string().trim().min(1).max(32).transform((v) => v.toUpperCase());
const labels = {
  deviceSn: { label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' } },
  priceId: { label: { zh: '套餐', en: 'Plan' }, required: { zh: '请选择套餐', en: 'Please choose a plan' } },
  payChannel: { label: { zh: '支付方式', en: 'Channel' }, required: { zh: '请选择支付方式', en: 'Please choose how to pay' } },
};
const planOut = z.object({
  id: z.string(), planName: z.string(), months: z.number(), storageDays: z.number(), price: z.number(), originalPrice: z.number().nullable(),
  currency: z.string(), priceText: z.string(),
});

/** the lock's product type, when the caller owns the lock */
async function ownedLockType(tx: Executor, tenantId: string, appUserId: string, sn: string): Promise<string | undefined> {
  const [row] = await tx.select({ typeId: product.typeId }).from(postsaleDevice).innerJoin(product, eq(product.id, postsaleDevice.productId))
    .where(and(eq(postsaleDevice.tenantId, tenantId), eq(postsaleDevice.deviceSn, sn), eq(postsaleDevice.appUserId, appUserId),
      eq(postsaleDevice.role, BINDING_ROLE.owner), eq(postsaleDevice.isDeleted, 0))).limit(1);
  return row?.typeId;
}

/** `SO` and the order's id: unique, 21 characters, within both providers' 6–32 of [0-9A-Za-z_] */
const orderNoOf = (id: string) => `SO${id}`;

export function registerAppStorage(app: FastifyInstance, ctx: AppContext): void {
  mountAppCall(app, ctx, {
    method: 'GET', url: STORAGE_APP_API.plans, access: 'app', labels, title: { zh: 'APP 云存储套餐', en: 'App: storage plans' },
    summary: 'The plans on sale for one of the caller\'s locks (its product type), in order; amounts in minor units',
    input: z.object({ deviceSn: snField() }).strict(), output: z.array(planOut),
  }, async ({ deviceSn }, { caller, tx, lang }) => {
    const typeId = await ownedLockType(tx, caller.tenantId, caller.appUserId, deviceSn);
    if (!typeId) throw fieldError('orderNotOwnersLock', lang, 'deviceSn', { sn: deviceSn });
    const plans = await tx.select().from(storagePrice)
      .where(and(eq(storagePrice.tenantId, caller.tenantId), eq(storagePrice.productTypeId, typeId), eq(storagePrice.onSale, 1), eq(storagePrice.isDeleted, 0)))
      .orderBy(asc(storagePrice.sort), asc(storagePrice.id));
    return plans.map((p) => ({
      id: p.id, planName: p.planName, months: p.months, storageDays: p.storageDays, price: p.price, originalPrice: p.originalPrice, currency: p.currency,
      priceText: isCurrency(p.currency) ? formatMoney(p.price, p.currency) : String(p.price),
    }));
  });

  mountAppCall(app, ctx, {
    method: 'GET', url: STORAGE_APP_API.orders, access: 'app', title: { zh: 'APP 我的云存订单', en: 'App: my storage orders' },
    summary: 'The caller\'s orders, newest first, with each paid period and the earliest recording its plan keeps now',
    input: z.object({}).strict(),
    output: z.array(z.object({
      orderNo: z.string(), deviceSn: z.string(), planName: z.string(), amount: z.number(), currency: z.string(), payState: z.string(),
      startTime: z.string().nullable(), endTime: z.string().nullable(), keptSince: z.string().nullable(),
    })),
  }, async (_input, { caller, tx }) => {
    const rows = await tx.select().from(storageOrder)
      .where(and(eq(storageOrder.tenantId, caller.tenantId), eq(storageOrder.appUserId, caller.appUserId), eq(storageOrder.isDeleted, 0)))
      .orderBy(desc(storageOrder.createTime), desc(storageOrder.id)).limit(200);
    const now = new Date();
    return rows.map((o) => ({
      orderNo: o.orderNo, deviceSn: o.deviceSn, planName: o.planName, amount: o.amount, currency: o.currency, payState: o.payState,
      startTime: formatDateTime(o.startTime), endTime: formatDateTime(o.endTime),
      keptSince: o.payState === PAY_STATE.paid && o.startTime && o.endTime && o.startTime <= now && now < o.endTime ? formatDateTime(keptSince(now, o.storageDays)) : null,
    }));
  });

  mountAppCallOutside(app, {
    method: 'POST', url: STORAGE_APP_API.placeOrder, access: 'app', labels, title: { zh: 'APP 下单云存储', en: 'App: order a plan' },
    summary: 'Places an order for a plan of one of the caller\'s locks and answers the provider\'s payment request for the app (WeChat Pay or Alipay); the order is paid when the provider\'s notification arrives',
    input: z.object({ priceId: z.string().regex(/^\d{1,19}$/), deviceSn: snField(), payChannel: z.enum(PAY_CHANNELS) }).strict(),
    output: z.object({ orderNo: z.string(), amount: z.number(), currency: z.string(), payment: z.record(z.string(), z.unknown()) }),
  }, async (input, { caller, lang }) => {
    const { order, settings } = await inTenant(ctx.db, { tenantId: caller.tenantId }, (tx) => prepareOrder(ctx, tx, caller, input, lang));
    try {
      const payment = await createPayment(input.payChannel, settings, {
        orderNo: order.orderNo, amount: order.amount, currency: order.currency as Currency, description: order.planName, expiresAt: new Date(Date.now() + PAY_WINDOW_MS),
      });
      return { orderNo: order.orderNo, amount: order.amount, currency: order.currency, payment };
    } catch (e) {
      // no payment, no order: the app may place it again
      await inTenant(ctx.db, { tenantId: caller.tenantId }, (tx) => tx.update(storageOrder).set({ isDeleted: 1, updateTime: new Date() }).where(eq(storageOrder.id, order.id)));
      if (e instanceof PaymentSettingsError) throw new AppError(400, 'payChannelOff', { channel: CHANNEL_NAMES[input.payChannel] });
      throw new AppError(400, 'payFailed', { detail: e instanceof Error ? e.message.slice(0, 200) : String(e).slice(0, 200) });
    }
  });
}

/** how long the app has to pay an order at the provider */
const PAY_WINDOW_MS = 2 * 3600_000;
const CHANNEL_NAMES = { wechat: { zh: '微信支付', en: 'WeChat Pay' }, alipay: { zh: '支付宝', en: 'Alipay' } } as const;

/** Checks the lock, the plan and the channel, and writes the unpaid order with the plan as it is now. */
async function prepareOrder(ctx: AppContext, tx: Executor, caller: AppCaller, input: { priceId: string; deviceSn: string; payChannel: PayChannel }, lang: Lang) {
  const typeId = await ownedLockType(tx, caller.tenantId, caller.appUserId, input.deviceSn);
  if (!typeId) throw fieldError('orderNotOwnersLock', lang, 'deviceSn', { sn: input.deviceSn });
  const [plan] = await tx.select().from(storagePrice).where(and(eq(storagePrice.id, input.priceId), eq(storagePrice.tenantId, caller.tenantId), eq(storagePrice.isDeleted, 0)));
  if (!plan || plan.onSale !== 1) throw fieldError('planNotOnSale', lang, 'priceId', { name: plan?.planName ?? input.priceId });
  if (plan.productTypeId !== typeId) throw fieldError('planNotForLock', lang, 'priceId', { name: plan.planName, sn: input.deviceSn });
  if (plan.currency !== 'CNY') throw fieldError('payCurrency', lang, 'priceId', { currency: plan.currency });
  const settings = await enabledPayment(ctx, tx, caller.tenantId, input.payChannel);
  if (!settings) throw fieldError('payChannelOff', lang, 'payChannel', { channel: CHANNEL_NAMES[input.payChannel] });
  const id = nextId();
  const [order] = await tx.insert(storageOrder).values({
    id, tenantId: caller.tenantId, orderNo: orderNoOf(id), deviceSn: input.deviceSn, appUserId: caller.appUserId, priceId: plan.id, planName: plan.planName,
    months: plan.months, storageDays: plan.storageDays, amount: plan.price, currency: plan.currency, payChannel: input.payChannel, payState: PAY_STATE.unpaid,
  }).returning();
  await logOrder(tx, order!, 'created', { toSn: input.deviceSn, detail: `${plan.planName} ${formatMoney(plan.price, plan.currency as Currency)} ${plan.currency}` });
  return { order: order!, settings };
}
