import { defineResource } from '@console/contract';
import { sql } from 'drizzle-orm';
import { date, doublePrecision, integer, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, searchGrams, tenantColumn, ts } from '../src/core/db/columns.js';
import { type AreaManifest, bind } from '../src/areas/index.js';
import { describeResource } from './conformance/kit.js';
import { addTestArea, useServer } from './harness.js';

/**
 * The kit's own test: resources that exist only in this file (with their tables, made by a data step)
 * use every field type, references (to a tenant resource, to a platform one, to themselves), write-only,
 * immutable and unique fields and both kinds of tree, so that every part of the kit runs against the
 * engine even before the real resources that need it are written.
 */
const tag = defineResource({
  code: 'kit_tag',
  path: '/api/kit-fixture/tag',
  title: { zh: '套件标签', en: 'Kit tags' },
  scope: 'tenant',
  nameField: 'tagName',
  menu: { parent: 'system', route: '/system/kit-tag', name: { zh: '套件标签', en: 'Kit tags' }, sort: 90 },
  fields: {
    tagName: { type: 'string', label: { zh: '标签名', en: 'Tag name' }, required: true, max: 40, unique: true, search: 'like', sortable: true },
    gender: { type: 'string', label: { zh: '性别', en: 'Sex' }, dict: 'sex', search: 'equal', sortable: true },
    weight: { type: 'int', label: { zh: '权重', en: 'Weight' }, min: 1, max: 9, search: 'equal', sortable: true },
  },
});

const node = defineResource({
  code: 'kit_node',
  path: '/api/kit-fixture/node',
  title: { zh: '套件节点', en: 'Kit nodes' },
  scope: 'tenant',
  menu: { parent: 'system', route: '/system/kit-node', name: { zh: '套件节点', en: 'Kit nodes' }, sort: 91 },
  tree: { parentField: 'parentId', ancestorsColumn: 'ancestors', labelField: 'nodeName' },
  fields: {
    parentId: { type: 'ref', ref: 'kit_node', label: { zh: '上级', en: 'Parent' } },
    nodeName: { type: 'string', label: { zh: '节点名', en: 'Node name' }, required: { zh: '请输入节点名', en: 'Please enter the node name' }, max: 60, search: 'like', sortable: true },
    serial: { type: 'string', label: { zh: '序列号', en: 'Serial' }, required: true, max: 30, unique: true, immutable: true, search: 'equal' },
    tagId: { type: 'ref', ref: 'kit_tag', label: { zh: '标签', en: 'Tag' }, search: 'equal' },
    tagIds: { type: 'ids', ref: 'kit_tag', label: { zh: '标签组', en: 'Tags' }, max: 3 },
    paramId: { type: 'ref', ref: 'param', label: { zh: '参数', en: 'Parameter' } },
    kind: { type: 'int', label: { zh: '类型', en: 'Kind' }, dict: 'notice', search: 'equal', sortable: true },
    flag: { type: 'boolean', label: { zh: '启用', en: 'Enabled' }, search: 'equal', sortable: true },
    day: { type: 'date', label: { zh: '日期', en: 'Day' }, search: 'dateRange', sortable: true },
    at: { type: 'datetime', label: { zh: '时间', en: 'At' }, search: 'dateRange', sortable: true },
    amount: { type: 'number', label: { zh: '金额', en: 'Amount' }, min: 0, max: 1000, sortable: true },
    plainId: { type: 'id', label: { zh: '外部编号', en: 'External id' } },
    link: { type: 'file', label: { zh: '附件', en: 'File' } },
    pic: { type: 'image', label: { zh: '图片', en: 'Picture' } },
    note: { type: 'text', label: { zh: '说明', en: 'Note' }, max: 500 },
    body: { type: 'richtext', label: { zh: '正文', en: 'Body' }, max: 5000 },
    secret: { type: 'string', label: { zh: '口令', en: 'Secret' }, writeOnly: true, max: 50 },
  },
});

/** A platform tree whose parent field is a plain id (no `ref`), listed unpaged like BladeX's menus. */
const area = defineResource({
  code: 'kit_area',
  path: '/api/kit-fixture/area',
  title: { zh: '套件区域', en: 'Kit areas' },
  scope: 'platform',
  menu: { parent: 'system', route: '/system/kit-area', name: { zh: '套件区域', en: 'Kit areas' }, sort: 92 },
  tree: { parentField: 'parentId', unpagedList: true },
  fields: {
    parentId: { type: 'id', label: { zh: '上级', en: 'Parent' } },
    areaName: { type: 'string', label: { zh: '区域名', en: 'Area name' }, required: true, max: 60, search: 'like' },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, sortable: true },
  },
});

const tagTable = pgTable('kit_fixture_tag', {
  id: id('id').primaryKey(), tenantId: tenantColumn(), tagName: varchar('tag_name', { length: 40 }).notNull(),
  gender: varchar('gender', { length: 10 }), weight: integer('weight'), ...auditColumns(), tagNameGrams: searchGrams('tag_name'),
});
const nodeTable = pgTable('kit_fixture_node', {
  id: id('id').primaryKey(), tenantId: tenantColumn(), parentId: id('parent_id').notNull().default('0'), ancestors: varchar('ancestors', { length: 2000 }),
  nodeName: varchar('node_name', { length: 60 }).notNull(), serial: varchar('serial', { length: 30 }).notNull(), tagId: id('tag_id'),
  tagIds: varchar('tag_ids', { length: 1000 }), paramId: id('param_id'), kind: integer('kind'), flag: smallint('flag'), day: date('day', { mode: 'string' }),
  at: ts('at'), amount: doublePrecision('amount'), plainId: id('plain_id'), link: varchar('link', { length: 1000 }), pic: varchar('pic', { length: 1000 }),
  note: varchar('note', { length: 500 }), body: text('body'), ...auditColumns(), nodeNameGrams: searchGrams('node_name'),
});
const areaTable = pgTable('kit_fixture_area', {
  id: id('id').primaryKey(), parentId: id('parent_id').notNull().default('0'), areaName: varchar('area_name', { length: 60 }).notNull(),
  sort: integer('sort'), ...auditColumns(), areaNameGrams: searchGrams('area_name'),
});
/** the grams of a searchable column and their index, as migration 0012 declares them for real tables */
const grams = (table: string, column: string) => [
  `alter table ${table} add column ${column}_grams text[] generated always as (app_grams(${column})) stored`,
  `create index ix_${table}_${column}_grams on ${table} using gin (${column}_grams)`,
];
const AUDIT = `create_user bigint, create_dept bigint, create_time timestamptz not null default now(), update_user bigint,
  update_time timestamptz not null default now(), status integer not null default 1, is_deleted smallint not null default 0`;

const fixtures: AreaManifest = {
  name: 'kit-fixtures',
  resources: [bind(tag, tagTable), bind(node, nodeTable), bind(area, areaTable)],
  dataSteps: [{
    name: 'kit-fixture-tables',
    async run(tx) {
      await tx.execute(sql.raw(`create table kit_fixture_tag (id bigint primary key, tenant_id varchar(12) not null, tag_name varchar(40) not null,
        gender varchar(10), weight integer, ${AUDIT})`));
      await tx.execute(sql.raw('create unique index uq_kit_fixture_tag_name on kit_fixture_tag (tenant_id, tag_name) where is_deleted = 0'));
      await tx.execute(sql.raw(`create table kit_fixture_node (id bigint primary key, tenant_id varchar(12) not null, parent_id bigint not null default 0,
        ancestors varchar(2000), node_name varchar(60) not null, serial varchar(30) not null, tag_id bigint, tag_ids varchar(1000), param_id bigint,
        kind integer, flag smallint, day date, at timestamptz, amount double precision, plain_id bigint, link varchar(1000), pic varchar(1000),
        note varchar(500), body text, ${AUDIT})`));
      await tx.execute(sql.raw(`create table kit_fixture_area (id bigint primary key, parent_id bigint not null default 0, area_name varchar(60) not null,
        sort integer, ${AUDIT})`));
      for (const statement of [...grams('kit_fixture_tag', 'tag_name'), ...grams('kit_fixture_node', 'node_name'), ...grams('kit_fixture_area', 'area_name')]) {
        await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql.raw("select app_enable_tenant_rls('kit_fixture_tag'::regclass), app_enable_tenant_rls('kit_fixture_node'::regclass)"));
    },
  }],
};
addTestArea(fixtures);

const h = useServer();
describeResource(tag, { harness: h });
describeResource(node, { harness: h });
describeResource(area, { harness: h });
