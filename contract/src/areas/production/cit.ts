import { z } from 'zod';
import { defineActions } from '../../action.js';
import { defineResource, idInput } from '../../resource.js';

const CIT_DICT_PATH = '/api/omc-device/cit-dict';
const CIT_PATH = '/api/omc-device/cit';

/** A CIT item's expected result: a value (`PASS`, `1`) or an inclusive range (`3.0~3.6`). */
export const CIT_STANDARD = /^(-?\d+(\.\d+)?~-?\d+(\.\d+)?|[^~]{1,64})$/;

/**
 * CIT (factory test) items (domain.md "CIT dict"): a tree of groups and items, each item with its expected
 * value or range; `copy-dict?id=` clones a subtree beside it (a new product's test plan from an old one).
 */
export const citDictResource = defineResource({
  code: 'cit_dict',
  path: CIT_DICT_PATH,
  title: { zh: 'CIT 测试项', en: 'CIT items' },
  scope: 'platform',
  nameField: 'name',
  defaultSort: { field: 'sort', order: 'asc' },
  tree: { parentField: 'parentId', ancestorsColumn: 'ancestors', labelField: 'name', unpagedList: true },
  menu: {
    parent: 'production', route: '/production/citdict', name: { zh: 'CIT 测试项', en: 'CIT items' }, sort: 4, icon: 'iconfont iconicon_doc',
    buttons: [{ code: 'cit_dict_copy', name: { zh: '复制', en: 'Copy' }, alias: 'copy', placement: 'row', action: 'copy' }],
  },
  fields: {
    parentId: { type: 'ref', ref: 'cit_dict', label: { zh: '上级', en: 'Parent' }, list: false },
    code: {
      type: 'string', label: { zh: '编码', en: 'Code' }, required: { zh: '请输入编码', en: 'Please enter the code' },
      max: 64, search: 'like', unique: true, width: 180,
      help: { zh: '工位上报结果时使用, 如 BAT_VOLT', en: 'What a station reports the result under, such as BAT_VOLT' },
    },
    name: { type: 'string', label: { zh: '名称', en: 'Name' }, required: { zh: '请输入名称', en: 'Please enter the name' }, max: 64, search: 'like', width: 180 },
    standard: {
      type: 'string', label: { zh: '标准', en: 'Standard' }, max: 64, width: 140,
      help: { zh: '期望值 (如 PASS) 或闭区间 (如 3.0~3.6); 留空表示分组', en: 'The expected value (such as PASS) or an inclusive range (such as 3.0~3.6); blank for a group' },
    },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 100000, sortable: true, width: 80, defaultValue: 1 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(CIT_DICT_PATH, {
    copy: {
      segment: 'copy-dict', method: 'POST', permission: 'cit_dict_copy', platform: 'write', title: { zh: '复制 CIT 测试项', en: 'CIT items: copy a subtree' },
      input: z.object({ id: idInput }), output: z.object({ id: z.string(), copied: z.number().int() }),
    },
  }),
});

/** One item of a CIT record: the reported value and whether it met its standard. */
export const citItemResult = z.object({ value: z.string(), pass: z.boolean(), standard: z.string().nullable() });

/**
 * CIT records (domain.md "CIT record"): what a station measured on a device, item by item, judged against the
 * items' standards; posted by the station (`post-cit`), read and exported here.
 */
export const citResource = defineResource({
  code: 'cit',
  path: CIT_PATH,
  title: { zh: 'CIT 记录', en: 'CIT records' },
  scope: 'platform',
  nameField: 'deviceSn',
  readOnly: true,
  page: 'custom',
  buttons: { add: false, edit: false, delete: false },
  defaultSort: { field: 'testTime', order: 'desc' },
  menu: {
    parent: 'production', route: '/production/cit', name: { zh: 'CIT 记录', en: 'CIT records' }, sort: 5, icon: 'iconfont iconicon_task_done',
    buttons: [{ code: 'cit_export', name: { zh: '导出', en: 'Export' }, alias: 'export', placement: 'toolbar' }],
  },
  io: { export: { name: 'export-cit', permission: 'cit_export' } },
  fields: {
    deviceSn: { type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, max: 32, search: 'like', sortable: true, width: 170 },
    batchId: { type: 'ref', ref: 'batch', label: { zh: '批次', en: 'Batch' }, search: 'equal', width: 140 },
    stationId: { type: 'ref', ref: 'station', label: { zh: '工位', en: 'Station' }, search: 'equal', width: 130 },
    result: { type: 'int', label: { zh: '结果', en: 'Result' }, dict: 'cit_result', search: 'equal', width: 90 },
    failedItems: { type: 'string', label: { zh: '未通过项', en: 'Failed items' }, width: 200 },
    items: { type: 'json', label: { zh: '测试明细', en: 'Items' } },
    testTime: { type: 'datetime', label: { zh: '测试时间', en: 'Tested at' }, search: 'dateRange', sortable: true },
  },
  actions: defineActions(CIT_PATH, {
    post: {
      segment: 'post-cit', method: 'POST', permission: 'cit', platform: 'write', title: { zh: '工位上报 CIT 结果', en: 'CIT records: a station posts results' },
      input: z.object({
        deviceSn: z.string().trim().min(1).max(32),
        stationCode: z.string().trim().min(1).max(32),
        items: z.record(z.string().trim().min(1).max(64), z.union([z.string().max(200), z.number()])).refine((v) => Object.keys(v).length > 0 && Object.keys(v).length <= 500, { params: { kind: 'idsRequired' } }),
        testTime: z.string().trim().optional(),
      }),
      output: z.object({ id: z.string(), result: z.number().int(), failedItems: z.array(z.string()) }),
    },
  }),
});

/**
 * SN rewrites (domain.md "SN rewrite"): a device's SN changed, with its certificate's, in one transaction;
 * refused when the new SN exists. Kept as the audit of who changed what and why: never edited nor removed.
 */
export const rewriteSnResource = defineResource({
  code: 'rewrite_sn',
  path: '/api/omc-device/rewrite-sn',
  title: { zh: 'SN 改写', en: 'SN rewrite' },
  scope: 'platform',
  nameField: 'newSn',
  createOnly: true,
  buttons: { edit: false, delete: false },
  menu: { parent: 'production', route: '/production/rewritesn', name: { zh: 'SN 改写', en: 'SN rewrite' }, sort: 6, icon: 'iconfont iconicon_compile' },
  fields: {
    oldSn: { type: 'string', label: { zh: '原 SN', en: 'Old SN' }, required: { zh: '请输入原 SN', en: 'Please enter the old SN' }, max: 32, search: 'like', immutable: true, width: 170 },
    newSn: { type: 'string', label: { zh: '新 SN', en: 'New SN' }, required: { zh: '请输入新 SN', en: 'Please enter the new SN' }, max: 32, search: 'like', immutable: true, width: 170 },
    reason: { type: 'text', label: { zh: '原因', en: 'Reason' }, required: { zh: '请输入改写原因', en: 'Please enter the reason' }, max: 500, list: true, width: 240 },
  },
});

