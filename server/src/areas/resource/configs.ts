import { type FieldDef, msg, t } from '@console/contract';
import {
  OSS_CATEGORY, ossResource, RESOURCE_STATUS, SMS_CATEGORY, smsResource,
} from '@console/contract/areas/resource/index';
import { and, eq, getTableName, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { internalUrl } from '../../core/outbound.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks, SaveContext } from '../../core/resource/engine.js';
import { oss, sms } from './tables.js';

type Row = Record<string, unknown>;
type ConfigTable = typeof sms | typeof oss;

/** A field the provider needs, missing from the configuration as it will be saved: 400 on that field. */
function requireFields(def: { fields: Record<string, FieldDef> }, merged: Row, names: string[], c: SaveContext): void {
  for (const name of names) {
    const v = merged[name];
    if (v === undefined || v === null || String(v).trim() === '') {
      const label = t(def.fields[name]!.label, c.lang);
      throw new AppError(400, 'validationFailed', { detail: msg('required', c.lang, { field: label }) }, { [name]: msg('required', c.lang, { field: label }) });
    }
  }
}

/**
 * A configuration is saved disabled (or keeps its state): only `enable` changes which one is enabled, so
 * the one-enabled-per-tenant rule is the enable call's (and the partial unique index's) to keep.
 */
function keepStatus(values: Row, c: SaveContext): void {
  if (c.mode === 'create') values.status = RESOURCE_STATUS.disabled;
  else delete values.status;
}

const SMS_NEEDS: Record<number, string[]> = {
  [SMS_CATEGORY.aliyun]: ['accessKey', 'secretKey', 'signName'],
  [SMS_CATEGORY.tencent]: ['accessKey', 'secretKey', 'appId', 'signName'],
  [SMS_CATEGORY.log]: [],
};

export function smsHooks(): ResourceHooks {
  return {
    async beforeSave(_tx, values, c) {
      keepStatus(values, c);
      const merged = { ...(c.stored ?? {}), ...values };
      const needs = SMS_NEEDS[Number(merged.category)];
      if (!needs) throw fieldError('badEnum', c.lang, 'category', { field: t(smsResource.fields.category.label, c.lang) });
      requireFields(smsResource, merged, needs, c);
    },
  };
}

/**
 * The endpoint is a tenant's: never an internal address (loopback, private, metadata…) unless the operator
 * listed it (OUTBOUND_ALLOW_HOSTS). Checked here on what is written; again at each connection on what the
 * name then resolves to (core/outbound.ts).
 */
export function ossHooks(ctx: AppContext): ResourceHooks {
  return {
    async beforeSave(_tx, values, c) {
      keepStatus(values, c);
      const merged = { ...(c.stored ?? {}), ...values };
      const category = Number(merged.category);
      if (category !== OSS_CATEGORY.local && category !== OSS_CATEGORY.s3) {
        throw fieldError('badEnum', c.lang, 'category', { field: t(ossResource.fields.category.label, c.lang) });
      }
      if (category === OSS_CATEGORY.s3) {
        requireFields(ossResource, merged, ['bucketName', 'accessKey', 'secretKey'], c);
        const endpoint = merged.endpoint ? String(merged.endpoint) : '';
        if (endpoint && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/i.test(endpoint)) {
          throw fieldError('badEnum', c.lang, 'endpoint', { field: t(ossResource.fields.endpoint.label, c.lang) });
        }
        const inside = endpoint ? internalUrl(endpoint, ctx.config.outboundAllow) : null;
        if (inside) throw fieldError('outboundInternal', c.lang, 'endpoint', { field: t(ossResource.fields.endpoint.label, c.lang), host: inside.host });
      }
    },
  };
}

/**
 * `enable?id`: the configuration becomes the tenant's only enabled one. Enables of one tenant take turns
 * (an advisory lock), and the partial unique index (tenant_id where status = 2) holds whatever happens.
 */
async function enableOne(tx: Executor, table: ConfigTable, tenantId: string, userId: string, id: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`enable:${getTableName(table)}:${tenantId}`}))`);
  const [row] = await tx.select({ id: table.id }).from(table).where(and(eq(table.id, id), eq(table.tenantId, tenantId), eq(table.isDeleted, 0)));
  if (!row) throw notFound();
  const now = new Date();
  await tx.update(table).set({ status: RESOURCE_STATUS.disabled, updateUser: userId, updateTime: now })
    .where(and(eq(table.tenantId, tenantId), eq(table.status, RESOURCE_STATUS.enabled), ne(table.id, id)));
  await tx.update(table).set({ status: RESOURCE_STATUS.enabled, updateUser: userId, updateTime: now }).where(eq(table.id, id));
}

export function mountEnable(
  app: FastifyInstance, ctx: AppContext, action: typeof smsResource.actions.enable | typeof ossResource.actions.enable, table: ConfigTable,
): void {
  mountAction(app, ctx, action, async (input, { user, tx }) => {
    await enableOne(tx, table, user.tenantId, user.userId, String(input.id));
    return true as const;
  });
}
