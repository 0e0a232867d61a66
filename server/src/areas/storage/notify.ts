import type { Currency } from '@console/contract';
import { PAY_CHANNELS, PAY_NOTIFY_PATH, PAY_STATE, type PayChannel } from '@console/contract/areas/storage/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { limitByIp } from '../../core/rateLimit.js';
import { enabledPayment, noticeAnswer, type PaidNotice, verifyNotification } from '../setting/index.js';
import { logOrder, runningUntil } from './orders.js';
import { periodOf } from './period.js';
import { storageOrder } from './tables.js';

/** a provider's notifications per address and minute: far above a busy merchant's, far below a flood */
const NOTIFY_BUDGET = { name: 'pay-notify', max: 3000, windowSeconds: 60 };
const NOTICE_MAX_BYTES = 64 * 1024;

type Credit = 'paid' | 'already' | 'refused';

/**
 * Credits a verified payment to its order, once: the order is locked, its channel, amount and currency must be
 * what the notice says was paid, and an order already paid is left as it is (a notice comes again until it is
 * answered, and may come twice at once). The paid period starts at the payment, or after the lock's running one.
 */
async function credit(tx: Executor, tenantId: string, paid: PaidNotice): Promise<{ outcome: Credit; why?: string }> {
  const [order] = await tx.select().from(storageOrder)
    .where(and(eq(storageOrder.tenantId, tenantId), eq(storageOrder.orderNo, paid.orderNo), eq(storageOrder.isDeleted, 0))).for('update');
  if (!order) return { outcome: 'refused', why: 'no such order' };
  if (order.payChannel !== paid.channel) return { outcome: 'refused', why: `channel ${paid.channel}, ordered ${order.payChannel}` };
  if (order.amount !== paid.amount || order.currency !== paid.currency) {
    return { outcome: 'refused', why: `paid ${paid.amount} ${paid.currency}, ordered ${order.amount} ${order.currency as Currency}` };
  }
  if (order.payState !== PAY_STATE.unpaid) {
    return { outcome: 'already', ...(order.transactionId !== paid.transactionId ? { why: `paid again as ${paid.transactionId}, first as ${order.transactionId}` } : {}) };
  }
  const { startTime, endTime } = periodOf(paid.paidAt, order.months, await runningUntil(tx, tenantId, order.deviceSn, paid.paidAt, order.id));
  await tx.update(storageOrder).set({
    payState: PAY_STATE.paid, payTime: paid.paidAt, transactionId: paid.transactionId, startTime, endTime, updateTime: new Date(),
  }).where(eq(storageOrder.id, order.id));
  await logOrder(tx, order, 'paid', { toSn: order.deviceSn, detail: `${paid.channel} ${paid.transactionId}` });
  return { outcome: 'paid' };
}

/**
 * `POST /api/pay/notify/{channel}/{tenantId}`: the provider's word that an order was paid. The body is read as it
 * arrived (the signature covers its bytes), verified with the tenant's settings of that channel, and credited once.
 * A refused notice is answered as a failure (the provider tries again later) and logged; nothing changes.
 */
export function registerPayNotify(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTICE_MAX_BYTES }, (_req, body, done) => done(null, body));
    scoped.post(`${PAY_NOTIFY_PATH}/:channel/:tenantId`, {
      config: { access: { public: true, ownBudget: true }, title: { zh: '支付结果通知', en: 'Payment notification' } },
      schema: {
        tags: ['app'],
        summary: 'Where WeChat Pay (API v3) and Alipay post a payment\'s outcome; verified by the provider\'s signature, credited once; answered as each provider expects',
        params: z.object({ channel: z.enum(PAY_CHANNELS), tenantId: z.string().regex(/^\d{6,12}$/) }),
        docsOnly: {
          // WeChat Pay posts JSON (its resource encrypted), Alipay a form; both signed over the bytes as sent
          body: z.union([
            z.object({ id: z.string(), event_type: z.string(), resource: z.object({ algorithm: z.string(), ciphertext: z.string(), nonce: z.string(), associated_data: z.string() }) }),
            z.record(z.string(), z.string()),
          ]),
          consumes: ['application/json', 'application/x-www-form-urlencoded'],
          response: { 200: z.union([z.object({ code: z.string(), message: z.string() }), z.enum(['success', 'failure'])]) },
        },
      },
    }, async (req, reply) => {
      await limitByIp(ctx, req, NOTIFY_BUDGET);
      const { channel, tenantId } = req.params as { channel: PayChannel; tenantId: string };
      const answer = (ok: boolean) => {
        const a = noticeAnswer(channel, ok);
        return reply.code(a.status).type(a.contentType).send(a.body);
      };
      const refuse = (why: string) => {
        ctx.logs.usual(req, tenantId, 'warn', 'pay-notify', { key: 'logPayNoticeRefused', params: { channel, why } });
        return answer(false);
      };
      const settings = await inTenant(ctx.db, { tenantId }, (tx) => enabledPayment(ctx, tx, tenantId, channel));
      if (!settings) return refuse('channel not enabled');
      const result = await verifyNotification(channel, settings, { headers: req.headers, rawBody: typeof req.body === 'string' ? req.body : '' });
      if (!result.ok) return refuse(result.reason);
      if (!result.paid) return answer(true);
      const paid = result.paid;
      const { outcome, why } = await inTenant(ctx.db, { tenantId }, (tx) => credit(tx, tenantId, paid));
      if (outcome === 'refused') return refuse(`${paid.orderNo}: ${why}`);
      if (why) ctx.logs.usual(req, tenantId, 'warn', 'pay-notify', { key: 'logPayNoticeRefused', params: { channel, why: `${paid.orderNo}: ${why}` } });
      return answer(true);
    });
  });
}
