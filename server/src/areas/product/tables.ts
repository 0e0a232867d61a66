import {
  brandResource, deliverResource, deviceColumnResource, explainResource, productAuthResource, productModelResource,
  productResource, productTypeResource, projectResource,
} from '@console/contract/areas/product/index';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGramsIndexes, ts, withSearchGrams } from '../../core/db/columns.js';

/** The product catalogue (platform data, no tenant column): types › models › products, brands, projects. */

export const productType = pgTable(
  'ymy_product_type',
  withSearchGrams(productTypeResource, {
    id: id('id').primaryKey(),
    typeName: varchar('type_name', { length: 64 }).notNull(),
    typeCode: varchar('type_code', { length: 32 }).notNull(),
    icon: varchar('icon', { length: 1000 }),
    sort: integer('sort').notNull().default(1),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_product_type_name').on(t.typeName).where(sql`is_deleted = 0`),
    uniqueIndex('uq_product_type_code').on(t.typeCode).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const brand = pgTable(
  'ymy_brand',
  withSearchGrams(brandResource, {
    id: id('id').primaryKey(),
    brandName: varchar('brand_name', { length: 64 }).notNull(),
    logo: varchar('logo', { length: 1000 }),
    website: varchar('website', { length: 500 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_brand_name').on(t.brandName).where(sql`is_deleted = 0`),
    index('ix_brand_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const productModel = pgTable(
  'ymy_product_model',
  withSearchGrams(productModelResource, {
    id: id('id').primaryKey(),
    typeId: id('type_id').notNull(),
    modelName: varchar('model_name', { length: 64 }).notNull(),
    modelCode: varchar('model_code', { length: 32 }).notNull(),
    image: varchar('image', { length: 1000 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_product_model_code').on(t.modelCode).where(sql`is_deleted = 0`),
    index('ix_product_model_type').on(t.typeId).where(sql`is_deleted = 0`),
    index('ix_product_model_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const project = pgTable(
  'ymy_project',
  withSearchGrams(projectResource, {
    id: id('id').primaryKey(),
    projectName: varchar('project_name', { length: 64 }).notNull(),
    projectCode: varchar('project_code', { length: 32 }).notNull(),
    modelId: id('model_id'),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_project_code').on(t.projectCode).where(sql`is_deleted = 0`),
    index('ix_project_model').on(t.modelId).where(sql`is_deleted = 0`),
    index('ix_project_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const product = pgTable(
  'ymy_product',
  withSearchGrams(productResource, {
    id: id('id').primaryKey(),
    productName: varchar('product_name', { length: 64 }).notNull(),
    productCode: varchar('product_code', { length: 32 }).notNull(),
    typeId: id('type_id').notNull(),
    modelId: id('model_id').notNull(),
    brandId: id('brand_id'),
    projectId: id('project_id'),
    cloudVendor: integer('cloud_vendor').notNull(),
    cloudProductId: varchar('cloud_product_id', { length: 64 }),
    image: varchar('image', { length: 1000 }),
    description: text('description'),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_product_code').on(t.productCode).where(sql`is_deleted = 0`),
    index('ix_product_type').on(t.typeId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_product_model').on(t.modelId).where(sql`is_deleted = 0`),
    index('ix_product_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

export const explain = pgTable(
  'ymy_explain',
  withSearchGrams(explainResource, {
    id: id('id').primaryKey(),
    productId: id('product_id').notNull(),
    title: varchar('title', { length: 128 }).notNull(),
    language: varchar('language', { length: 16 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    file: varchar('file', { length: 1000 }).notNull(),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_explain_product').on(t.productId, t.createTime, t.id).where(sql`is_deleted = 0`),
    index('ix_explain_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Product-type authorisation: one row per tenant and product type it may see (the platform sees every type). */
export const productAuth = pgTable(
  'ymy_product_auth',
  withSearchGrams(productAuthResource, {
    id: id('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    typeId: id('type_id').notNull(),
    createUser: id('create_user'),
    createTime: ts('create_time').notNull().defaultNow(),
  }),
  (t) => [
    uniqueIndex('uq_product_auth').on(t.tenantId, t.typeId),
    index('ix_product_auth_time').on(t.createTime, t.id),
    ...searchGramsIndexes(t),
  ],
);

/** The device attributes a product type has: the dynamic columns of the batch device list. */
export const deviceColumn = pgTable(
  'ymy_device_column',
  withSearchGrams(deviceColumnResource, {
    id: id('id').primaryKey(),
    typeId: id('type_id').notNull(),
    columnKey: varchar('column_key', { length: 32 }).notNull(),
    label: varchar('label', { length: 32 }).notNull(),
    labelEn: varchar('label_en', { length: 64 }),
    valueType: varchar('value_type', { length: 16 }).notNull().default('text'),
    sort: integer('sort').notNull().default(1),
    ...auditColumns(),
  }),
  (t) => [
    uniqueIndex('uq_device_column_key').on(t.typeId, t.columnKey).where(sql`is_deleted = 0`),
    index('ix_device_column_time').on(t.createTime, t.id).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);

/** Deliveries of products to customer tenants (a tenant reads those made to it). */
export const deliver = pgTable(
  'ymy_deliver',
  withSearchGrams(deliverResource, {
    id: id('id').primaryKey(),
    productId: id('product_id').notNull(),
    customerTenantId: varchar('customer_tenant_id', { length: 12 }).notNull(),
    batchId: id('batch_id'),
    quantity: integer('quantity').notNull(),
    deliverTime: ts('deliver_time').notNull(),
    trackingNo: varchar('tracking_no', { length: 64 }),
    remark: varchar('remark', { length: 500 }),
    ...auditColumns(),
  }),
  (t) => [
    index('ix_deliver_time').on(t.deliverTime, t.id).where(sql`is_deleted = 0`),
    index('ix_deliver_customer').on(t.customerTenantId, t.deliverTime).where(sql`is_deleted = 0`),
    index('ix_deliver_batch').on(t.batchId).where(sql`is_deleted = 0`),
    ...searchGramsIndexes(t),
  ],
);
