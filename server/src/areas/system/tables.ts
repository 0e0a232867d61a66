import { regionResource } from '@console/contract/areas/base/index';
import { dictBizResource, paramResource, postResource } from '@console/contract/areas/system/index';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, tenantColumn, withSearchGrams } from '../../core/db/columns.js';

/** Posts (job positions) of a tenant. */
export const post = pgTable(
  'blade_post',
  withSearchGrams(postResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    category: integer('category').notNull(),
    postCode: varchar('post_code', { length: 64 }).notNull(),
    postName: varchar('post_name', { length: 64 }).notNull(),
    sort: integer('sort').notNull().default(1),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_post_code').on(t.tenantId, t.postCode).where(sql`is_deleted = 0`),
    index('ix_post_tenant_sort').on(t.tenantId, t.sort, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Administrative divisions, platform-wide; a region's id is its national code. */
export const region = pgTable(
  'blade_region',
  withSearchGrams(regionResource, {
    id: id('id').primaryKey(),
    code: varchar('code', { length: 12 }).notNull(),
    parentId: id('parent_id').notNull().default('0'),
    ancestors: varchar('ancestors', { length: 255 }).notNull().default('0'),
    name: varchar('name', { length: 64 }).notNull(),
    regionLevel: smallint('region_level').notNull(),
    provinceCode: varchar('province_code', { length: 12 }),
    provinceName: varchar('province_name', { length: 64 }),
    cityCode: varchar('city_code', { length: 12 }),
    cityName: varchar('city_name', { length: 64 }),
    districtCode: varchar('district_code', { length: 12 }),
    districtName: varchar('district_name', { length: 64 }),
    sort: integer('sort').notNull().default(1),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_region_code').on(t.code).where(sql`is_deleted = 0`),
    index('ix_region_parent').on(t.parentId, t.sort).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** The business dictionary: as blade_dict, with rows per tenant. */
export const dictBiz = pgTable(
  'blade_dict_biz',
  withSearchGrams(dictBizResource, {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    parentId: id('parent_id').notNull().default('0'),
    code: varchar('code', { length: 100 }).notNull(),
    dictKey: varchar('dict_key', { length: 100 }).notNull(),
    dictValue: varchar('dict_value', { length: 255 }).notNull(),
    dictValueEn: varchar('dict_value_en', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 500 }),
    isSealed: smallint('is_sealed').notNull().default(0),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_dict_biz_code_key').on(t.tenantId, t.code, t.dictKey).where(sql`is_deleted = 0`),
    index('ix_dict_biz_parent').on(t.tenantId, t.parentId, t.sort).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const param = pgTable(
  'blade_param',
  withSearchGrams(paramResource, {
    id: id('id').primaryKey(),
    paramName: varchar('param_name', { length: 255 }).notNull(),
    paramKey: varchar('param_key', { length: 255 }).notNull(),
    paramValue: text('param_value').notNull(),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_param_key').on(t.paramKey).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t, { paramNameGrams: 'ix_param_name_grams', paramKeyGrams: 'ix_param_key_grams' }),
  ],
);
