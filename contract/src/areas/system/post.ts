import { z } from 'zod';
import { defineActions } from '../../action.js';
import { defineResource } from '../../resource.js';

const PATH = '/api/blade-system/post';

export const postOption = z.object({ id: z.string(), postCode: z.string(), postName: z.string() });

/** Posts (blade_post): job positions of a tenant; users hold posts. */
export const postResource = defineResource({
  code: 'post',
  path: PATH,
  title: { zh: '岗位管理', en: 'Posts' },
  scope: 'tenant',
  nameField: 'postName',
  defaultSort: { field: 'sort', order: 'asc' },
  menu: { parent: 'system', route: '/system/post', name: { zh: '岗位管理', en: 'Posts' }, sort: 3, icon: 'iconfont iconicon_boss' },
  fields: {
    category: {
      type: 'int', label: { zh: '岗位类型', en: 'Category' }, dict: 'post_category', required: { zh: '请选择岗位类型', en: 'Please select the category' },
      search: 'equal', width: 120,
    },
    postCode: {
      type: 'string', label: { zh: '岗位编号', en: 'Code' }, required: { zh: '请输入岗位编号', en: 'Please enter the post code' },
      max: 64, unique: true, search: 'like', sortable: true,
    },
    postName: {
      type: 'string', label: { zh: '岗位名称', en: 'Name' }, required: { zh: '请输入岗位名称', en: 'Please enter the post name' },
      max: 64, search: 'like', sortable: true,
    },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, required: { zh: '请输入排序', en: 'Please enter the sort order' }, min: 0, max: 100000, sortable: true, width: 90, defaultValue: 1 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(PATH, {
    select: {
      method: 'GET', permission: 'post', alsoFor: ['user'], title: { zh: '岗位下拉数据', en: 'Posts: options' },
      input: z.object({ tenantId: z.string().max(12).optional() }), output: z.array(postOption),
    },
  }),
});
