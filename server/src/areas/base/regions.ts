import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { region } from '../system/index.js';
import { readRegions } from './region/regionData.js';

/** A region's id is its code; its level and the names of its province, city and district follow its parent. */
export function regionHooks(): ResourceHooks {
  return {
    async beforeSave(tx, values, c) {
      if (c.mode !== 'create') return;
      const code = String(values.code);
      if (!/^\d{6}(\d{3}(\d{3})?)?$/.test(code)) throw fieldError('regionCodeFormat', c.lang, 'code');
      values.id = code;
      // the code of a removed region is free again (the engine checked live rows only), but its id is the
      // code: the removed row gives way to the new one
      await tx.delete(region).where(and(eq(region.id, code), eq(region.isDeleted, 1)));
      const parentId = String(values.parentId ?? '0');
      const [parent] = parentId === '0' ? [] : await tx.select().from(region).where(and(eq(region.id, parentId), eq(region.isDeleted, 0)));
      const level = parent ? parent.regionLevel + 1 : 1;
      values.regionLevel = level;
      values.provinceCode = level === 1 ? code : parent?.provinceCode ?? null;
      values.provinceName = level === 1 ? values.name : parent?.provinceName ?? null;
      values.cityCode = level === 2 ? code : level > 2 ? parent?.cityCode ?? null : null;
      values.cityName = level === 2 ? values.name : level > 2 ? parent?.cityName ?? null : null;
      values.districtCode = level === 3 ? code : level > 3 ? parent?.districtCode ?? null : null;
      values.districtName = level === 3 ? values.name : level > 3 ? parent?.districtName ?? null : null;
    },
  };
}

/** The national administrative divisions (region/regions.tsv), seeded once. */
export async function seedRegions(tx: Tx): Promise<void> {
  for await (const batch of readRegions({ batchSize: 1000 })) {
    await tx.insert(region).values(batch.map((r) => ({
      id: r.code, code: r.code, parentId: r.parentCode === '00' ? '0' : r.parentCode, ancestors: r.ancestors.replace(/^00(?=,|$)/, '0'),
      name: r.name, regionLevel: r.regionLevel, provinceCode: r.provinceCode, provinceName: r.provinceName, cityCode: r.cityCode,
      cityName: r.cityName, districtCode: r.districtCode, districtName: r.districtName, sort: r.sort,
    })));
  }
}
