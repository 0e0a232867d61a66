import { defineActions } from '../../action.js';
import { defineResource } from '../../resource.js';
import { z } from 'zod';

const PATH = '/api/blade-system/dept';

/** One department as `dept/select` answers it. */
export const deptOption = z.object({ id: z.string(), parentId: z.string(), deptName: z.string() });

/** Departments (blade_dept): the organisation tree of a tenant; users belong to departments. */
export const deptResource = defineResource({
  code: 'dept',
  path: PATH,
  title: { zh: '部门管理', en: 'Departments' },
  scope: 'tenant',
  nameField: 'deptName',
  tree: { parentField: 'parentId', ancestorsColumn: 'ancestors', labelField: 'deptName', unpagedList: true },
  menu: { parent: 'system', route: '/system/dept', name: { zh: '部门管理', en: 'Departments' }, sort: 2, icon: 'iconfont iconicon_group' },
  fields: {
    deptName: {
      type: 'string', label: { zh: '部门名称', en: 'Name' }, required: { zh: '请输入部门名称', en: 'Please enter the department name' },
      max: 100, search: 'like', width: 200,
    },
    deptNameEn: { type: 'string', label: { zh: '英文名称', en: 'English name' }, max: 100, list: false },
    fullName: {
      type: 'string', label: { zh: '部门全称', en: 'Full name' }, required: { zh: '请输入部门全称', en: 'Please enter the full name' },
      max: 255, search: 'like',
    },
    parentId: { type: 'ref', ref: 'dept', label: { zh: '上级部门', en: 'Parent department' }, list: false },
    deptCategory: {
      type: 'int', label: { zh: '机构类型', en: 'Type' }, dict: 'org_category', required: { zh: '请选择机构类型', en: 'Please select the type' },
      search: 'equal', width: 120, defaultValue: 2,
    },
    sort: { type: 'int', label: { zh: '排序', en: 'Sort' }, required: { zh: '请输入排序', en: 'Please enter the sort order' }, min: 0, max: 100000, sortable: true, width: 90, defaultValue: 1 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(PATH, {
    select: {
      method: 'GET', permission: null, title: { zh: '部门下拉数据', en: 'Departments: options' },
      // BladeX: the departments of `userId` (the caller's own when absent), or those named by `deptId`
      input: z.object({ userId: z.string().trim().regex(/^\d{1,19}$/).optional(), deptId: z.string().max(2000).optional() }),
      output: z.array(deptOption),
    },
  }),
});
