import { type ActionOutput, type Lang } from '@console/contract';
import { firmwareResource, RELEASE_STATE } from '@console/contract/areas/device/index';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { sdkErrorReason } from '../../core/cloudApi.js';
import { callHere } from '../../core/callHere.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { ok } from '../../core/envelope.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { mountOutsideTransaction } from '../../core/resource/actions.js';
import { UPLOADS } from '../../core/uploads.js';
import { missingSetting, requireCloudKeys, tencentIotClient, VENDOR_NAMES, product } from '../product/index.js';
import { measured } from './firmware.js';
import { firmware, otaTask } from './tables.js';

/**
 * The firmware cloud (FIRMWARE_CLOUD): where firmware versions live and how one device is told to upgrade, behind
 * the IPC operations of Tencent IoT Explorer's names (GetCOSURL, UploadFirmware, ListFirmwares,
 * DescribeFirmwareTask, UpdateFirmware). `own`, the default, is this server: its storage, its firmware register
 * and its OTA runner over the device gateway. `tencent` passes the calls to Tencent IoT Explorer through its
 * official SDK with the server's credentials.
 */
type Actions = typeof firmwareResource.actions;
type In<K extends keyof Actions> = z.output<Actions[K]['input']>;
type Out<K extends keyof Actions> = ActionOutput<Actions[K]>;

/** What a firmware cloud operation is called with besides its input. */
interface Call {
  user: AuthUser;
  lang: Lang;
  req: FastifyRequest;
}

export interface FirmwareCloud {
  readonly name: 'own' | 'tencent';
  getCosUrl(input: In<'getCosUrl'>, c: Call): Promise<Out<'getCosUrl'>>;
  uploadFirmware(input: In<'uploadFirmware'>, c: Call): Promise<Out<'uploadFirmware'>>;
  listFirmwares(input: In<'listFirmwares'>, c: Call): Promise<Out<'listFirmwares'>>;
  describeFirmwareTask(input: In<'describeFirmwareTask'>, c: Call): Promise<Out<'describeFirmwareTask'>>;
  updateFirmware(input: In<'updateFirmware'>, c: Call): Promise<Out<'updateFirmware'>>;
}

/** the presigned upload link's life, and how long an uploaded file waits for its UploadFirmware */
const LINK_TTL_SECONDS = 15 * 60;
const PENDING_TTL_SECONDS = 60 * 60;
export const FIRMWARE_UPLOAD_PATH = '/sc/ymy-ipc/back/firmware-file';
const DEFAULT_MODULE = 'mcu';

/** An own-storage upload link's grant: who may PUT which version's file, until when. */
interface UploadGrant {
  user: AuthUser;
  productId: string;
  moduleType: string;
  version: string;
  size?: number;
  exp: number;
}

const linkKey = (ctx: AppContext) => createHmac('sha256', ctx.config.jwtSecret).update('firmware-upload-link').digest();

export function signGrant(ctx: AppContext, grant: UploadGrant): string {
  const body = Buffer.from(JSON.stringify(grant)).toString('base64url');
  return `${body}.${createHmac('sha256', linkKey(ctx)).update(body).digest('base64url')}`;
}

export function readGrant(ctx: AppContext, token: string, now = Date.now()): UploadGrant | null {
  const [body, mac] = token.split('.');
  if (!body || !mac) return null;
  const expected = createHmac('sha256', linkKey(ctx)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as UploadGrant;
    return grant.exp > now / 1000 ? grant : null;
  } catch {
    return null;
  }
}

/** an upload waiting for its UploadFirmware, per caller: two people uploading the same version never take each other's file */
const pendingKey = (userId: string, g: Pick<UploadGrant, 'productId' | 'moduleType' | 'version'>) =>
  `firmware-upload:${userId}:${g.productId}:${g.moduleType}:${g.version}`;

/** The live product a cloud call names: by its cloud product id, or by its id here. */
async function productNamed(tx: Executor, named: string): Promise<typeof product.$inferSelect | undefined> {
  const byId = /^\d{1,19}$/.test(named) ? eq(product.id, named) : undefined;
  const [row] = await tx.select().from(product)
    .where(and(eq(product.isDeleted, 0), byId ? or(eq(product.cloudProductId, named), byId) : eq(product.cloudProductId, named))).limit(1);
  return row;
}

const seconds = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : 0);
const TASK_STATUS: Record<string, number> = { running: 1, finished: 2, cancelled: 3 };

function ownCloud(app: FastifyInstance, ctx: AppContext): FirmwareCloud {
  const platform = (user: AuthUser) => ({ tenantId: user.tenantId });
  const knownProduct = async (user: AuthUser, named: string) => {
    const row = await inTenant(ctx.db, platform(user), (tx) => productNamed(tx, named));
    if (!row) throw badRequest('firmwareCloudProduct', { id: named });
    return row;
  };
  return {
    name: 'own',
    async getCosUrl(input, c) {
      const p = await knownProduct(c.user, input.ProductID);
      const grant: UploadGrant = {
        user: c.user, productId: p.id, moduleType: input.FwType ?? DEFAULT_MODULE, version: input.FirmwareVersion,
        ...(input.FileSize ? { size: input.FileSize } : {}), exp: Math.floor(Date.now() / 1000) + LINK_TTL_SECONDS,
      };
      return { Url: `${ctx.config.publicUrl}${FIRMWARE_UPLOAD_PATH}?token=${signGrant(ctx, grant)}` };
    },

    async uploadFirmware(input, c) {
      const p = await knownProduct(c.user, input.ProductID);
      const key = pendingKey(c.user.userId, { productId: p.id, moduleType: input.FwType ?? DEFAULT_MODULE, version: input.FirmwareVersion });
      const pending = await ctx.kv.get(key);
      if (!pending) throw badRequest('firmwareUploadMissing', { version: input.FirmwareVersion });
      const { link, size, md5 } = JSON.parse(pending) as { link: string; size: number; md5: string };
      if (size !== input.FileSize) throw badRequest('firmwareUploadSize', { measured: size, given: input.FileSize });
      if (md5 !== input.Md5sum.toLowerCase()) throw badRequest('firmwareUploadMd5', { measured: md5, given: input.Md5sum });
      const notes = [input.FirmwareName, input.FirmwareDescription].filter(Boolean).join('\n');
      const saved = await callHere<{ id: string }>(app, c.req, firmwareResource.path + '/submit', {
        productId: p.id, moduleType: input.FwType ?? DEFAULT_MODULE, version: input.FirmwareVersion, file: link, ...(notes ? { releaseNotes: notes } : {}),
      });
      await ctx.kv.del(key);
      return { FirmwareId: String(saved.id) };
    },

    async listFirmwares(input, c) {
      return inTenant(ctx.db, platform(c.user), async (tx) => {
        const where: SQL[] = [eq(firmware.isDeleted, 0)];
        if (input.ProductID) {
          const p = await productNamed(tx, input.ProductID);
          if (!p) return { TotalCount: 0, Firmwares: [] };
          where.push(eq(firmware.productId, p.id));
        }
        for (const f of input.Filters ?? []) {
          if (f.Name === 'Version') where.push(or(...f.Values.map((v) => ilike(firmware.version, `%${v.replace(/[\\%_]/g, '\\$&')}%`)))!);
          else if (f.Name === 'FwType') where.push(or(...f.Values.map((v) => eq(firmware.moduleType, v)))!);
          else throw badRequest('firmwareCloudFilter', { name: f.Name });
        }
        const size = input.PageSize ?? 10;
        const [{ total } = { total: 0 }] = await tx.select({ total: sql<number>`count(*)::int` }).from(firmware).where(and(...where));
        const rows = await tx.select({ f: firmware, productName: product.productName, cloudProductId: product.cloudProductId })
          .from(firmware).leftJoin(product, eq(product.id, firmware.productId))
          .where(and(...where)).orderBy(desc(firmware.createTime), desc(firmware.id))
          .limit(size).offset(((input.PageNum ?? 1) - 1) * size);
        return {
          TotalCount: Number(total),
          Firmwares: rows.map(({ f, productName, cloudProductId }) => ({
            Version: f.version, Md5sum: f.md5 ?? '', CreateTime: seconds(f.createTime), ProductName: productName ?? '', Name: f.version,
            Description: f.releaseNotes ?? '', ProductId: cloudProductId ?? String(f.productId), FwType: f.moduleType,
            ...(f.createUser ? { CreateUserId: String(f.createUser) } : {}),
          })),
        };
      });
    },

    async describeFirmwareTask(input, c) {
      return inTenant(ctx.db, platform(c.user), async (tx) => {
        const p = await productNamed(tx, input.ProductID);
        if (!p) throw badRequest('firmwareCloudProduct', { id: input.ProductID });
        const [task] = await tx.select().from(otaTask)
          .where(and(eq(otaTask.id, input.TaskId), eq(otaTask.productId, p.id), eq(otaTask.isDeleted, 0)));
        if (!task) throw notFound();
        if (task.toVersion !== input.FirmwareVersion) throw badRequest('otaTaskOtherVersion', { id: input.TaskId, version: input.FirmwareVersion });
        return {
          TaskId: String(task.id), Status: TASK_STATUS[task.state] ?? 0, CreateTime: seconds(task.createTime), Type: 1, ProductName: p.productName,
          UpgradeMode: task.scope === 'selected' ? 'devicenames' : task.scope === 'batch' ? 'batch' : 'product', ProductId: p.cloudProductId ?? String(p.id),
          OriginalVersion: '', ...(task.createUser ? { CreateUserId: String(task.createUser) } : {}),
          TimeoutInterval: (task.timeoutMinutes ?? 30) * 60, MaxRetryNum: task.maxRetries ?? 0, RateLimit: task.rateLimit,
          Total: task.total, Succeeded: task.succeeded, Failed: task.failed,
        };
      });
    },

    async updateFirmware(input, c) {
      const p = await knownProduct(c.user, input.ProductID);
      const sn = input.DeviceName.toUpperCase();
      const { fw, current } = await inTenant(ctx.db, platform(c.user), async (tx) => {
        const versions = await tx.select({ id: firmware.id, moduleType: firmware.moduleType }).from(firmware)
          .where(and(eq(firmware.productId, p.id), eq(firmware.version, input.FirmwareVersion), eq(firmware.state, RELEASE_STATE.published), eq(firmware.isDeleted, 0),
            ...(input.FwType ? [eq(firmware.moduleType, input.FwType)] : [])));
        if (versions.length === 0) throw badRequest('firmwareVersionUnknown', { version: input.FirmwareVersion });
        if (versions.length > 1) throw badRequest('firmwareModuleAmbiguous', { version: input.FirmwareVersion, modules: versions.map((v) => v.moduleType).join(', ') });
        const status = await tx.execute(sql`select firmware_version, versions from ymy_device_status where sn = ${sn} and product_id = ${p.id}::bigint limit 1`);
        const row = (status as unknown as { rows: Array<{ firmware_version: string | null; versions: Record<string, string> | null }> }).rows[0];
        return { fw: versions[0]!, current: row ? (row.versions?.[versions[0]!.moduleType] ?? row.firmware_version) : undefined };
      });
      if (current && current !== input.FirmwareOriVersion) throw badRequest('firmwareOriVersion', { sn, current, given: input.FirmwareOriVersion });
      const task = await callHere<{ id: string }>(app, c.req, '/api/omc-device/ota-task/submit', {
        taskName: `UpdateFirmware ${sn} ${input.FirmwareOriVersion} → ${input.FirmwareVersion}`.slice(0, 64),
        firmwareId: fw.id, scope: 'selected', deviceSns: sn, rateLimit: 600,
      });
      return { TaskId: String(task.id) };
    },
  };
}

/** Tencent IoT Explorer: the same names and shapes, passed through the official SDK. */
function tencentCloud(ctx: AppContext): FirmwareCloud {
  const call = async <T>(action: string, params: Record<string, unknown>, lang: Lang): Promise<T> => {
    const vendor = VENDOR_NAMES[1][lang];
    requireCloudKeys(1, ctx.config, lang);
    const client = await tencentIotClient(ctx.config);
    try {
      return (await client.request(action, params)) as T;
    } catch (e) {
      throw new AppError(502, 'cloudCallFailed', { vendor, reason: sdkErrorReason(e) });
    }
  };
  /** a product here named by its id stands for its Tencent product id; any other name is the cloud's own */
  const cloudId = async (user: AuthUser, named: string) => {
    const p = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => productNamed(tx, named));
    if (!p) return named;
    if (!p.cloudProductId) throw badRequest('firmwareCloudNoProductId', { product: p.productName });
    return p.cloudProductId;
  };
  return {
    name: 'tencent',
    async getCosUrl(input, c) {
      return call('GetCOSURL', { ...input, ProductID: await cloudId(c.user, input.ProductID) }, c.lang);
    },
    async uploadFirmware(input, c) {
      await call('UploadFirmware', { ...input, ProductID: await cloudId(c.user, input.ProductID) }, c.lang);
      return {};
    },
    async listFirmwares(input, c) {
      return call('ListFirmwares', { ...input, ...(input.ProductID ? { ProductID: await cloudId(c.user, input.ProductID) } : {}) }, c.lang);
    },
    async describeFirmwareTask(input, c) {
      return call('DescribeFirmwareTask', { ...input, TaskId: Number(input.TaskId), ProductID: await cloudId(c.user, input.ProductID) }, c.lang);
    },
    async updateFirmware(input, c) {
      await call('UpdateFirmware', { ...input, ProductID: await cloudId(c.user, input.ProductID) }, c.lang);
      return {};
    },
  };
}

export function firmwareCloudOf(app: FastifyInstance, ctx: AppContext): FirmwareCloud {
  return ctx.config.firmwareCloud === 'tencent' ? tencentCloud(ctx) : ownCloud(app, ctx);
}

/**
 * The IPC firmware operations, the own storage's upload link (a PUT of the raw bytes, authorised by its signed
 * token like a presigned object-storage URL) and the firmware screen's 上传云端.
 */
export async function registerFirmwareCloud(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const cloud = firmwareCloudOf(app, ctx);
  const unset = cloud.name === 'tencent' ? missingSetting(1, ctx.config) : undefined;
  if (unset) app.log.warn(`FIRMWARE_CLOUD=tencent but ${unset} is not set: the firmware cloud calls will answer that it is missing`);
  const a = firmwareResource.actions;
  mountOutsideTransaction(app, a.getCosUrl, (input, c) => cloud.getCosUrl(input, c));
  mountOutsideTransaction(app, a.uploadFirmware, (input, c) => cloud.uploadFirmware(input, c));
  mountOutsideTransaction(app, a.listFirmwares, (input, c) => cloud.listFirmwares(input, c));
  mountOutsideTransaction(app, a.describeFirmwareTask, (input, c) => cloud.describeFirmwareTask(input, c));
  mountOutsideTransaction(app, a.updateFirmware, (input, c) => cloud.updateFirmware(input, c));

  mountOutsideTransaction(app, a.cloudUpload, async ({ id }, c) => {
    if (cloud.name === 'own') throw badRequest('firmwareCloudOwn');
    requireCloudKeys(1, ctx.config, c.lang);
    const row = await inTenant(ctx.db, { tenantId: c.user.tenantId }, async (tx) => {
      const [f] = await tx.select({ f: firmware, productName: product.productName, cloudProductId: product.cloudProductId }).from(firmware)
        .innerJoin(product, eq(product.id, firmware.productId)).where(and(eq(firmware.id, id), eq(firmware.isDeleted, 0)));
      return f;
    });
    if (!row) throw notFound();
    // the button is shown on drafts and published versions only (shownWhen); the server holds to it as well
    if (Number(row.f.state) === RELEASE_STATE.withdrawn) throw badRequest('firmwareWithdrawnCloud', { version: row.f.version });
    if (!row.cloudProductId) throw badRequest('firmwareCloudNoProductId', { product: row.productName });
    if (!row.f.file) throw badRequest('firmwareFileUnknown');
    const file = await ctx.services.find(UPLOADS)?.open(c.user.tenantId, row.f.file);
    if (!file || !row.f.md5) throw badRequest('firmwareFileUnknown');
    const target = { ProductID: row.cloudProductId, FirmwareVersion: row.f.version, FwType: row.f.moduleType };
    const { Url } = await cloud.getCosUrl({ ...target, FileSize: file.size }, c);
    const put = await fetch(Url, {
      method: 'PUT', body: file.stream as unknown as BodyInit, duplex: 'half', headers: { 'content-length': String(file.size), 'content-type': 'application/octet-stream' },
    } as RequestInit).catch((e: unknown) => ({ ok: false, status: 0, statusText: sdkErrorReason(e) }));
    if (!put.ok) throw new AppError(502, 'cloudCallFailed', { vendor: VENDOR_NAMES[1][c.lang], reason: `PUT ${put.status} ${put.statusText}`.trim() });
    await cloud.uploadFirmware({ ...target, Md5sum: row.f.md5, FileSize: file.size, FirmwareName: row.f.version, ...(row.f.releaseNotes ? { FirmwareDescription: row.f.releaseNotes.slice(0, 2000) } : {}) }, c);
    const cloudFirmwareId = `${row.cloudProductId}/${row.f.moduleType}/${row.f.version}`;
    await inTenant(ctx.db, { tenantId: c.user.tenantId }, (tx) =>
      tx.update(firmware).set({ cloudVendor: 1, cloudFirmwareId, updateUser: c.user.userId, updateTime: new Date() }).where(eq(firmware.id, id)));
    return { cloud: VENDOR_NAMES[1][c.lang], cloudFirmwareId };
  });

  // own storage only: the bytes of a version, PUT to the link GetCOSURL answered
  if (cloud.name !== 'own') return;
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (_req, _payload, done) => done(null));
    scoped.put(FIRMWARE_UPLOAD_PATH, { config: { access: { public: true } }, schema: { hide: true } }, async (req) => {
      const token = (req.query as Record<string, unknown>).token;
      const grant = typeof token === 'string' ? readGrant(ctx, token) : null;
      if (!grant) {
        req.raw.resume();
        throw badRequest('firmwareUploadLink');
      }
      const uploads = ctx.services.get(UPLOADS);
      const stored = await uploads.store(grant.user, { file: req.raw, filename: `${grant.version}.bin` }, 'file', req.lang);
      const file = await inTenant(ctx.db, { tenantId: grant.user.tenantId }, (tx) => measured(tx, grant.user.tenantId, stored.link));
      if (!file?.md5 || (grant.size !== undefined && file.size !== grant.size)) {
        await uploads.discard(grant.user, stored);
        throw badRequest('firmwareUploadSize', { measured: file?.size ?? 0, given: grant.size ?? 0 });
      }
      const object = { size: file.size, md5: file.md5 };
      await ctx.kv.set(pendingKey(grant.user.userId, grant), JSON.stringify({ link: stored.link, size: object.size, md5: object.md5 }), PENDING_TTL_SECONDS);
      return ok({ size: object.size, md5: object.md5 }, req.lang);
    });
  });
}
