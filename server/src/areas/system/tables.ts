import { sql } from 'drizzle-orm';
import { index, integer, pgTable, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGrams, searchGramsIndex, tenantColumn } from '../../core/db/columns.js';

/** Posts (job positions) of a tenant. */
export const post = pgTable(
  'blade_post',
  {
    id: id('id').primaryKey(),
    tenantId: tenantColumn(),
    category: integer('category').notNull(),
    postCode: varchar('post_code', { length: 64 }).notNull(),
    postName: varchar('post_name', { length: 64 }).notNull(),
    sort: integer('sort').notNull().default(1),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
    postCodeGrams: searchGrams('post_code'),
    postNameGrams: searchGrams('post_name'),
  },
  (t) => [
    uniqueIndex('uq_post_code').on(t.tenantId, t.postCode).where(sql`is_deleted = 0`),
    index('ix_post_tenant_sort').on(t.tenantId, t.sort, t.id).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_post_post_code_grams', t.postCodeGrams),
    searchGramsIndex('ix_post_post_name_grams', t.postNameGrams),
  ],
);

/** Administrative divisions, platform-wide; a region's id is its national code. */
export const region = pgTable(
  'blade_region',
  {
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
    codeGrams: searchGrams('code'),
    nameGrams: searchGrams('name'),
  },
  (t) => [
    uniqueIndex('uq_region_code').on(t.code).where(sql`is_deleted = 0`),
    index('ix_region_parent').on(t.parentId, t.sort).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_region_code_grams', t.codeGrams),
    searchGramsIndex('ix_region_name_grams', t.nameGrams),
  ],
);

/** The business dictionary: as blade_dict, with rows per tenant. */
export const dictBiz = pgTable(
  'blade_dict_biz',
  {
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
    codeGrams: searchGrams('code'),
    dictValueGrams: searchGrams('dict_value'),
    dictKeyGrams: searchGrams('dict_key'),
  },
  (t) => [
    uniqueIndex('uq_dict_biz_code_key').on(t.tenantId, t.code, t.dictKey).where(sql`is_deleted = 0`),
    index('ix_dict_biz_parent').on(t.tenantId, t.parentId, t.sort).where(sql`is_deleted = 0`),
    searchGramsIndex('ix_dict_biz_code_grams', t.codeGrams),
    searchGramsIndex('ix_dict_biz_dict_value_grams', t.dictValueGrams),
    searchGramsIndex('ix_dict_biz_dict_key_grams', t.dictKeyGrams),
  ],
);
