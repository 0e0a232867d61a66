import { z } from 'zod';
import { defineActions } from '../../action.js';
import { defineResource, type Fields } from '../../resource.js';

const DICT_PATH = '/api/blade-system/dict';
const DICT_BIZ_PATH = '/api/blade-system/dict-biz';

/** The dictKey of a dictionary's header row (parentId 0), as BladeX stores it. */
export const DICT_HEADER_KEY = '-1';

/** One item as `dictionary?code=` answers it (the display value in the caller's language). */
export const dictItemSchema = z.object({
  id: z.string(), code: z.string(), dictKey: z.string(), dictValue: z.string(), sort: z.number(), remark: z.string(),
});

/**
 * The fields of both dictionaries (spec 3 and 5): a header row per code (parentId 0, dictKey -1) and its
 * items below it, which inherit the header's code. Sealed rows (isSealed 1) cannot be changed or removed.
 */
function dictFields(ref: 'dict' | 'dictbiz') {
  return {
    code: {
      type: 'string', label: { zh: '字典编号', en: 'Code' }, required: { zh: '请输入字典编号', en: 'Please enter the dictionary code' },
      max: 100, search: 'like', width: 160,
    },
    dictValue: {
      type: 'string', label: { zh: '字典名称', en: 'Name' }, required: { zh: '请输入字典名称', en: 'Please enter the dictionary name' },
      max: 255, search: 'like', width: 160,
    },
    dictValueEn: { type: 'string', label: { zh: '英文名称', en: 'English name' }, max: 255, list: false },
    sort: {
      type: 'int', label: { zh: '字典排序', en: 'Sort' }, required: { zh: '请输入字典排序', en: 'Please enter the sort order' },
      min: 0, max: 100000, sortable: true, width: 90, defaultValue: 1,
    },
    isSealed: {
      type: 'int', label: { zh: '封存', en: 'Sealed' }, dict: 'yes_no', required: { zh: '请选择封存', en: 'Please select whether it is sealed' },
      min: 0, max: 1, search: 'equal', width: 90, defaultValue: 0,
    },
    remark: { type: 'string', label: { zh: '字典备注', en: 'Remark' }, max: 500 },
    parentId: { type: 'ref', ref, label: { zh: '上级字典', en: 'Parent' }, form: false, width: 140 },
    dictKey: {
      type: 'string', label: { zh: '字典键值', en: 'Key' }, required: { zh: '请输入字典键值', en: 'Please enter the dictionary key' },
      max: 100, search: 'like', width: 110,
    },
  } as const satisfies Fields;
}

const dictActions = (path: string) => defineActions(path, {
  dictionary: {
    method: 'GET', permission: null, title: { zh: '字典项', en: 'Dictionary items' },
    input: z.object({ code: z.string().trim().min(1).max(100) }),
    output: z.array(dictItemSchema),
  },
});

/** The system dictionary (blade_dict): platform-wide, written by the platform (spec 2 "Dictionary screens"). */
export const dictResource = defineResource({
  code: 'dict',
  path: DICT_PATH,
  title: { zh: '系统字典', en: 'System dictionary' },
  scope: 'platform',
  nameField: 'dictValue',
  defaultSort: { field: 'sort', order: 'asc' },
  tree: { parentField: 'parentId', labelField: 'dictValue', unpagedList: true },
  menu: { parent: 'system', route: '/system/dict', name: { zh: '系统字典', en: 'System dictionary' }, sort: 4, icon: 'iconfont iconicon_addresslist' },
  page: 'custom',
  fields: dictFields('dict'),
  actions: dictActions(DICT_PATH),
});

/** The business dictionary (blade_dict_biz): the same, with rows per tenant. */
export const dictBizResource = defineResource({
  code: 'dictbiz',
  path: DICT_BIZ_PATH,
  title: { zh: '业务字典', en: 'Business dictionary' },
  scope: 'tenant',
  nameField: 'dictValue',
  defaultSort: { field: 'sort', order: 'asc' },
  tree: { parentField: 'parentId', labelField: 'dictValue', unpagedList: true },
  menu: { parent: 'system', route: '/system/dictbiz', name: { zh: '业务字典', en: 'Business dictionary' }, sort: 5, icon: 'iconfont iconicon_study' },
  page: 'custom',
  fields: dictFields('dictbiz'),
  actions: dictActions(DICT_BIZ_PATH),
});
