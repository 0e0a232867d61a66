import { type Lang, msg } from '@console/contract';
import { certResource } from '@console/contract/areas/production/index';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { AppContext, AuthUser } from '../../core/context.js';
import { allowLongStatements, rowsAffected, type Executor } from '../../core/db/index.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { splitList } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import { invalidateDeviceKeys } from './certsChannel.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { formatDateTime } from '../../core/time.js';
import { productDirectory, productKey, product, authorisedTypeIds } from '../product/index.js';
import { deviceOwner } from './ownership.js';
import { batch, cert, factoryDevice } from './tables.js';

type Row = Record<string, unknown>;
const ALIBABA = 2;
/** the cert_state dictionary */
export const CERT_STATE = { free: 1, allocated: 2, burned: 3, revoked: 4 } as const;

const present = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * A record's credentials (its input, secrets still in clear): a secret, or a certificate with its key
 * (Tencent only); a certificate must parse, be in date and match its key. Answers its fingerprint and expiry.
 */
export function inspectCredentials(input: Row, lang: Lang, now = new Date()): { errors?: Record<string, string>; values?: Row } {
  const errors: Record<string, string> = {};
  const hasPem = present(input.certificate) || present(input.privateKey);
  if (Number(input.cloudVendor) === ALIBABA) {
    if (!present(input.deviceSecret)) errors.deviceSecret = msg('certSecretMissing', lang);
    if (hasPem) errors.certificate = msg('certNotForVendor', lang);
    return { errors };
  }
  if (!present(input.deviceSecret) && !(present(input.certificate) && present(input.privateKey))) {
    errors[present(input.certificate) ? 'privateKey' : present(input.privateKey) ? 'certificate' : 'deviceSecret'] = msg('certCredentialsMissing', lang);
    return { errors };
  }
  if (!hasPem) return {};
  let certificate: X509Certificate | undefined;
  try {
    certificate = new X509Certificate(String(input.certificate));
  } catch {
    errors.certificate = msg('certPemInvalid', lang);
  }
  if (certificate && new Date(certificate.validTo) < now) {
    errors.certificate = msg('certExpired', lang, { time: formatDateTime(new Date(certificate.validTo)) ?? certificate.validTo });
  }
  let key: ReturnType<typeof createPrivateKey> | undefined;
  try {
    key = createPrivateKey(String(input.privateKey));
  } catch {
    errors.privateKey = msg('keyPemInvalid', lang);
  }
  if (certificate && key && !errors.certificate && !certificate.checkPrivateKey(key)) errors.privateKey = msg('keyMismatch', lang);
  if (Object.keys(errors).length || !certificate) return { errors };
  return { values: { fingerprint: certificate.fingerprint256.replace(/:/g, '').toLowerCase(), validTo: new Date(certificate.validTo), state: 1 } };
}

/** Every certificate names a product registered for its cloud (vendor and cloud product id), checked for a chunk at once. */
async function checkProducts(ctx: AppContext, tx: Executor, rows: Row[], lang: Lang): Promise<Array<Record<string, string> | undefined>> {
  const keys = rows.map((r) => ({ vendor: Number(r.cloudVendor), cloudProductId: String(r.cloudProductId) }));
  const known = await productDirectory(ctx).byCloud(tx, keys);
  // the clouds' names as the cloud_vendor dictionary gives them: the import read it before its transaction
  const names = await ctx.dicts.held('cloud_vendor', lang);
  const vendorName = (v: number) => names?.get(String(v)) ?? String(v);
  return keys.map((k) => (known.has(productKey(k.vendor, k.cloudProductId))
    ? undefined
    : { cloudProductId: msg('certUnknownProduct', lang, { vendor: vendorName(k.vendor), productId: k.cloudProductId }) }));
}

/**
 * A tenant reads the certificates of the devices delivered to it whose product type it is authorised for
 * (`get-cert-list`, `get-cert-detail`); free certificates and other tenants' stay the platform's.
 */
async function certScope(tx: Executor, user: AuthUser): Promise<SQL | undefined> {
  const owner = deviceOwner(user);
  if (owner === undefined) return undefined;
  const types = await authorisedTypeIds(tx, user);
  if (!types?.length) return sql`false`;
  return sql`${cert.deviceSn} in (select d.sn from ${factoryDevice} d join ${product} p on p.id = d.product_id
    where d.owner_tenant_id = ${owner} and p.type_id in (${sql.join(types.map((t) => sql`${t}::bigint`), sql`, `)}))`;
}

export const certHooks = (ctx: AppContext): ResourceHooks => ({
  scope: certScope,
  inspect: (input, c) => inspectCredentials(input, c.lang),
  checkRows: (tx, rows, lang) => checkProducts(ctx, tx, rows, lang),
  // the device gateway caches device keys: a changed or removed certificate is forgotten on every instance
  async afterSave(_tx, _saved, c) {
    if (c.mode === 'update') c.afterCommit(() => invalidateDeviceKeys(ctx.kv));
  },
  // a new certificate replaces no key a gateway holds: an import's created rows need no reading back
  async afterCreateRows() {},
  async beforeRemove(_tx, _rows, c) {
    c.afterCommit(() => invalidateDeviceKeys(ctx.kv));
  },
  releases: {
    // a removed batch's certificates (`onRemove: 'detach'`) go back to free; a revoked one stays revoked
    async batchId(tx, ids, user) {
      await allowLongStatements(tx, 300_000);
      await tx.update(cert).set({ state: sql`case when ${cert.state} = ${CERT_STATE.allocated} then ${CERT_STATE.free} else ${cert.state} end`, batchId: null, deviceSn: null, updateUser: user.userId, updateTime: new Date() })
        .where(and(inArray(cert.batchId, ids), eq(cert.isDeleted, 0)));
    },
  },
});

/**
 * `allocate-cert?batchId=`: the batch's devices without a certificate take free ones of the batch product's
 * cloud product: a certificate named as a device's SN goes to that device, the rest in SN order. Rows are
 * locked (skip locked), so two allocations never hand out one certificate twice.
 */
export function registerCertActions(app: FastifyInstance, ctx: AppContext): void {
  registerCertStateActions(app, ctx);
  mountAction(app, ctx, certResource.actions.allocate, async (input, { tx, user }) => {
    const [b] = await tx.select({ id: batch.id, vendor: product.cloudVendor, productId: product.cloudProductId, productName: product.productName })
      .from(batch).innerJoin(product, eq(product.id, batch.productId))
      .where(and(eq(batch.id, input.batchId), eq(batch.isDeleted, 0)));
    if (!b) throw notFound();
    if (!b.productId) throw new AppError(400, 'batchProductNoCloud', { name: b.productName });
    // a batch of 100,000 devices takes as many certificates in two statements
    await allowLongStatements(tx, 300_000);
    const byName = await tx.execute(sql`
      with pairs as (
        select c.id as cert_id, d.id as device_id, d.sn
        from ymy_factory_device d
        join ymy_cert c on c.device_name = d.sn and c.is_deleted = 0 and c.state = 1
          and c.cloud_vendor = ${b.vendor} and c.cloud_product_id = ${b.productId}
        where d.batch_id = ${b.id}::bigint and d.certificate_id is null
        for update of c skip locked
      ), devices as (
        update ymy_factory_device d set certificate_id = p.cert_id from pairs p where d.id = p.device_id returning d.id
      )
      update ymy_cert c set state = 2, batch_id = ${b.id}::bigint, device_sn = p.sn, update_user = ${user.userId}::bigint, update_time = now()
      from pairs p where c.id = p.cert_id`);
    const inOrder = await tx.execute(sql`
      with devices as (
        select id, sn, row_number() over (order by sn) as n
        from ymy_factory_device where batch_id = ${b.id}::bigint and certificate_id is null
      ), certs as (
        select id, row_number() over (order by device_name, id) as n
        from (
          select id, device_name from ymy_cert
          where is_deleted = 0 and state = 1 and cloud_vendor = ${b.vendor} and cloud_product_id = ${b.productId}
          order by device_name, id
          limit (select count(*) from devices)
          for update skip locked
        ) free
      ), pairs as (
        select c.id as cert_id, d.id as device_id, d.sn from devices d join certs c using (n)
      ), linked as (
        update ymy_factory_device d set certificate_id = p.cert_id from pairs p where d.id = p.device_id returning d.id
      )
      update ymy_cert c set state = 2, batch_id = ${b.id}::bigint, device_sn = p.sn, update_user = ${user.userId}::bigint, update_time = now()
      from pairs p where c.id = p.cert_id`);
    const [left] = (await tx.execute(sql`select count(*)::int as n from ymy_factory_device where batch_id = ${b.id}::bigint and certificate_id is null`) as unknown as { rows: Array<{ n: number }> }).rows;
    const allocated = rowsAffected(byName) + rowsAffected(inOrder);
    // tended a moment after this commits
    ctx.upkeep.changed('ymy_cert', allocated);
    ctx.upkeep.changed('ymy_factory_device', allocated);
    return { allocated, missing: left?.n ?? 0 };
  });
}

/** the live certificates of `ids` for a change of state, locked; an unknown one is a 404 (all or none) */
async function certsToChange(tx: Executor, idList: string, lang: Lang) {
  const ids = splitList(idList);
  if (ids.length === 0) throw badRequest('validationFailed', { detail: msg('required', lang, { field: lang === 'zh' ? '编号' : 'ids' }) });
  const rows = await tx.select({ id: cert.id, state: cert.state, deviceName: cert.deviceName }).from(cert)
    .where(and(inArray(cert.id, ids), eq(cert.isDeleted, 0))).for('update');
  if (rows.length !== ids.length) throw notFound();
  return { ids, rows };
}

/**
 * 证书管理's release (an allocated certificate back to free: the device, never burned, loses it and may be given
 * another) and revoke (never to be used again: not allocated, burned, nor accepted from a device).
 */
function registerCertStateActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, certResource.actions.release, async (input, { tx, user, lang, afterCommit }) => {
    const { ids, rows } = await certsToChange(tx, input.ids, lang);
    const stuck = rows.find((r) => r.state !== CERT_STATE.allocated);
    if (stuck) throw new AppError(400, 'certNotReleasable', { name: stuck.deviceName });
    await tx.update(factoryDevice).set({ certificateId: null }).where(inArray(factoryDevice.certificateId, ids));
    await tx.update(cert).set({ state: CERT_STATE.free, batchId: null, deviceSn: null, updateUser: user.userId, updateTime: new Date() }).where(inArray(cert.id, ids));
    afterCommit(() => invalidateDeviceKeys(ctx.kv));
    return { released: ids.length };
  });
  mountAction(app, ctx, certResource.actions.revoke, async (input, { tx, user, lang, afterCommit }) => {
    const { ids, rows } = await certsToChange(tx, input.ids, lang);
    const revoked = rows.find((r) => r.state === CERT_STATE.revoked);
    if (revoked) throw new AppError(400, 'certAlreadyRevoked', { name: revoked.deviceName });
    await tx.update(cert).set({ state: CERT_STATE.revoked, updateUser: user.userId, updateTime: new Date() }).where(inArray(cert.id, ids));
    afterCommit(() => invalidateDeviceKeys(ctx.kv));
    return { revoked: ids.length };
  });
}
