import { type Lang } from '@console/contract';
import { productResource } from '@console/contract/areas/product/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sdkErrorReason, splitEndpoint } from '../../core/cloudApi.js';
import type { AppContext } from '../../core/context.js';
import type { Config } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import { product } from './tables.js';

/** A product as an IoT cloud describes it. */
export interface CloudProduct {
  cloudProductId: string;
  name: string;
  description: string | null;
}

export const VENDOR_NAMES = { 1: { zh: '腾讯云 IoT Explorer', en: 'Tencent Cloud IoT Explorer' }, 2: { zh: '阿里云物联网平台', en: 'Alibaba Cloud IoT Platform' } } as const;
/** pages fetched at most (a cloud account with more products than this is cut, and says so in the log) */
const MAX_PAGES = 50;


/** The setting a vendor lacks, named for the error, or undefined when it has what it needs. */
export function missingSetting(vendor: 1 | 2, config: Config): string | undefined {
  if (vendor === 1) {
    if (!config.iotClouds.tencent.secretId) return 'TENCENT_IOT_SECRET_ID';
    if (!config.iotClouds.tencent.secretKey) return 'TENCENT_IOT_SECRET_KEY';
    return undefined;
  }
  if (!config.iotClouds.alibaba.accessKeyId) return 'ALIBABA_IOT_ACCESS_KEY_ID';
  if (!config.iotClouds.alibaba.accessKeySecret) return 'ALIBABA_IOT_ACCESS_KEY_SECRET';
  return undefined;
}

/** Refuses a cloud call when the server has no keys for the vendor, naming the missing setting in the caller's language. */
export function requireCloudKeys(vendor: 1 | 2, config: Config, lang: Lang): void {
  const setting = missingSetting(vendor, config);
  if (setting) throw new AppError(400, 'cloudNotConfigured', { vendor: VENDOR_NAMES[vendor][lang], setting });
}

/** A client of Tencent Cloud IoT Explorer (API 2019-04-23) through its official SDK core, with the server's credentials. */
export async function tencentIotClient(config: Config) {
  const { AbstractClient } = await import('tencentcloud-sdk-nodejs-common');
  const c = config.iotClouds.tencent;
  const endpoint = splitEndpoint(c.endpoint ?? 'https://iotexplorer.tencentcloudapi.com');
  return new AbstractClient(endpoint.host, '2019-04-23', {
    credential: { secretId: c.secretId!, secretKey: c.secretKey! },
    region: c.region,
    profile: { httpProfile: { endpoint: endpoint.host, protocol: endpoint.https ? 'https://' : 'http://', reqTimeout: 15 } },
  });
}

/** Tencent Cloud IoT Explorer's products (GetStudioProductList). */
async function tencentProducts(config: Config): Promise<CloudProduct[]> {
  const c = config.iotClouds.tencent;
  const client = await tencentIotClient(config);
  const out: CloudProduct[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = (await client.request('GetStudioProductList', { ...(c.projectId ? { ProjectId: c.projectId } : {}), Offset: page * 100, Limit: 100 })) as {
      Products?: Array<{ ProductId?: string; ProductName?: string; ProductDesc?: string }>; Total?: number;
    };
    for (const p of res.Products ?? []) if (p.ProductId) out.push({ cloudProductId: p.ProductId, name: p.ProductName ?? p.ProductId, description: p.ProductDesc || null });
    if ((res.Products ?? []).length < 100 || out.length >= (res.Total ?? 0)) break;
  }
  return out;
}

/** Alibaba Cloud IoT Platform (API 2018-01-20, QueryProductList) through its official SDK. */
async function alibabaProducts(config: Config): Promise<CloudProduct[]> {
  const [sdk, openapi] = await Promise.all([import('@alicloud/iot20180120'), import('@alicloud/openapi-client')]);
  const Client = ((sdk.default as unknown as { default?: unknown }).default ?? sdk.default) as typeof sdk.default;
  const c = config.iotClouds.alibaba;
  const endpoint = splitEndpoint(c.endpoint ?? `https://iot.${c.region}.aliyuncs.com`);
  const client = new Client(new openapi.Config({
    accessKeyId: c.accessKeyId, accessKeySecret: c.accessKeySecret, regionId: c.region,
    endpoint: endpoint.host, protocol: endpoint.https ? 'https' : 'http', readTimeout: 15_000, connectTimeout: 5_000,
  }) as never);
  const out: CloudProduct[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await client.queryProductList(new sdk.QueryProductListRequest({ currentPage: page, pageSize: 200, ...(c.instanceId ? { iotInstanceId: c.instanceId } : {}) }));
    const body = res.body;
    if (!body?.success) throw new Error(`${body?.code ?? 'unknown'} ${body?.errorMessage ?? ''}`.trim());
    for (const p of body.data?.list?.productInfo ?? []) if (p.productKey) out.push({ cloudProductId: p.productKey, name: p.productName ?? p.productKey, description: p.description || null });
    if (page >= (body.data?.pageCount ?? 1)) break;
  }
  return out;
}

/**
 * `sync-product-info?cloudVendor=`: the cloud's products, pulled through the vendor's SDK with the server's
 * credentials (a clear 400 naming the missing setting when there are none). Products here with the same
 * cloud product id take the cloud's description; cloud products not registered here are answered, to be
 * registered (a product here needs its type and model, which the cloud does not know).
 */
export function registerCloudSync(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, productResource.actions.syncFromCloud, async (input, { tx, lang, user }) => {
    const vendor = input.cloudVendor as 1 | 2;
    const vendorName = VENDOR_NAMES[vendor][lang];
    requireCloudKeys(vendor, ctx.config, lang);
    let found: CloudProduct[];
    try {
      found = vendor === 1 ? await tencentProducts(ctx.config) : await alibabaProducts(ctx.config);
    } catch (e) {
      throw new AppError(502, 'cloudCallFailed', { vendor: vendorName, reason: sdkErrorReason(e) });
    }
    let updated = 0;
    const unmatched: Array<{ cloudProductId: string; name: string }> = [];
    for (const p of found) {
      const rows = await tx.update(product).set({ description: p.description, updateUser: user.userId, updateTime: new Date() })
        .where(and(eq(product.cloudVendor, vendor), eq(product.cloudProductId, p.cloudProductId), eq(product.isDeleted, 0)))
        .returning({ id: product.id });
      if (rows.length) updated += rows.length;
      else unmatched.push({ cloudProductId: p.cloudProductId, name: p.name });
    }
    return { fetched: found.length, updated, unmatched };
  });
}
