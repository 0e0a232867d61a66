import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { inList } from '../../core/db/bulk.js';
import type { Kv } from '../../core/kv.js';
import { product } from './tables.js';

const CHANNEL = 'products-changed';
/** a safety net for a change made outside the API (the product screen's 清除缓存 clears at once) */
const TTL_MS = 5 * 60_000;

export interface ProductEntry {
  id: string;
  productName: string;
  productCode: string;
  typeId: string;
  modelId: string;
  cloudVendor: number;
  cloudProductId: string;
}

const cloudKey = (vendor: number, cloudProductId: string) => `${vendor}\u0000${cloudProductId}`;

/**
 * The live products by their IoT cloud identity (vendor and cloud product id), the question a certificate
 * import asks for every chunk and a device's connection will ask for every device. Kept in memory per
 * instance, unknown identities too; a product written through the API, or `product/clear-cache`, clears it
 * on every instance (through the kv store's messages).
 */
export class ProductDirectory {
  private readonly entries = new Map<string, { at: number; entry: ProductEntry | null }>();

  constructor(private readonly kv: Kv) {}

  async start(): Promise<void> {
    await this.kv.subscribe(CHANNEL, () => this.entries.clear(), () => this.entries.clear());
  }

  /** the products of these identities (absent: no live product), loading what is not cached in one statement */
  async byCloud(tx: Executor, keys: Array<{ vendor: number; cloudProductId: string }>): Promise<Map<string, ProductEntry>> {
    const now = Date.now();
    const missing = new Set<string>();
    for (const k of keys) {
      const hit = this.entries.get(cloudKey(k.vendor, k.cloudProductId));
      if (!hit || now - hit.at > TTL_MS) missing.add(k.cloudProductId);
    }
    if (missing.size) {
      const rows = await tx.select({
        id: product.id, productName: product.productName, productCode: product.productCode, typeId: product.typeId, modelId: product.modelId,
        cloudVendor: product.cloudVendor, cloudProductId: sql<string>`${product.cloudProductId}`,
      }).from(product).where(and(eq(product.isDeleted, 0), inList(product.cloudProductId, [...missing])));
      for (const k of keys) if (missing.has(k.cloudProductId)) this.entries.set(cloudKey(k.vendor, k.cloudProductId), { at: now, entry: null });
      for (const r of rows) this.entries.set(cloudKey(r.cloudVendor, r.cloudProductId), { at: now, entry: r });
    }
    const out = new Map<string, ProductEntry>();
    for (const k of keys) {
      const entry = this.entries.get(cloudKey(k.vendor, k.cloudProductId))?.entry;
      if (entry) out.set(cloudKey(k.vendor, k.cloudProductId), entry);
    }
    return out;
  }

  /** how many identities this instance holds */
  get size(): number {
    return this.entries.size;
  }

  /** forgets every product on every instance; answers how many this instance held */
  async clear(): Promise<number> {
    const held = this.entries.size;
    this.entries.clear();
    await this.kv.publish(CHANNEL, String(Date.now()));
    return held;
  }
}

export const productKey = cloudKey;

const directories = new WeakMap<AppContext, ProductDirectory>();
/** the server's product directory (one per server; started by the product module) */
export function productDirectory(ctx: AppContext): ProductDirectory {
  let hit = directories.get(ctx);
  if (!hit) {
    hit = new ProductDirectory(ctx.kv);
    directories.set(ctx, hit);
  }
  return hit;
}
