import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource, idListInput, isDateTimeText } from '../../resource.js';

const PATH = '/api/blade-system/tenant';
const PACKAGE_PATH = '/api/blade-system/tenant-package';

/** Tenant packages (blade_tenant_package): the menus a tenant may use (spec section 2, "Tenant package screen"). */
export const tenantPackageResource = defineResource({
  code: 'tenant_package',
  path: PACKAGE_PATH,
  title: { zh: '租户套餐', en: 'Tenant packages' },
  scope: 'platform',
  platformAdminOnly: true,
  nameField: 'packageName',
  buttons: { view: false },
  page: 'custom',
  menu: { parent: 'system', route: '/system/tenantpackage', name: { zh: '租户套餐', en: 'Tenant packages' }, sort: 11, icon: 'iconfont iconicon_coinpurse_line' },
  fields: {
    packageName: {
      type: 'string', label: { zh: '套餐名称', en: 'Package name' }, required: { zh: '请输入套餐名称', en: 'Please enter the package name' },
      max: 50, unique: true, search: 'like',
    },
    menuId: {
      // a removed menu leaves the packages that offered it
      type: 'ids', ref: 'menu', label: { zh: '菜单列表', en: 'Menus' }, required: { zh: '请选择菜单', en: 'Please select menus' }, list: false, onRemove: 'detach',
    },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500, list: true },
  },
});

const tenantCode = z.string().trim().regex(/^\d{6}$/);

/** Tenants (blade_tenant): the platform administrator's alone (403 for anyone else). */
export const tenantResource = defineResource({
  code: 'tenant',
  path: PATH,
  title: { zh: '租户管理', en: 'Tenants' },
  scope: 'platform',
  platformAdminOnly: true,
  nameField: 'tenantName',
  page: 'custom',
  menu: {
    parent: 'system', route: '/system/tenant', name: { zh: '租户管理', en: 'Tenants' }, sort: 10, icon: 'iconfont iconicon_group',
    buttons: [
      { code: 'tenant_setting', name: { zh: '授权配置', en: 'Licence' }, alias: 'setting', placement: 'toolbar', action: 'setting', custom: true },
      { code: 'tenant_datasource', name: { zh: '数据源配置', en: 'Data source' }, alias: 'datasource', placement: 'row', action: 'datasource', custom: true },
      { code: 'tenant_package_setting', name: { zh: '套餐配置', en: 'Package' }, alias: 'package', placement: 'row', action: 'packageSetting', custom: true },
    ],
  },
  fields: {
    tenantId: { type: 'string', label: { zh: '租户ID', en: 'Tenant ID' }, max: 12, form: false, search: 'like', sortable: true, width: 100 },
    tenantName: { type: 'string', label: { zh: '租户名称', en: 'Name' }, required: { zh: '请输入租户名称', en: 'Please enter the tenant name' }, max: 100, search: 'like' },
    linkman: { type: 'string', label: { zh: '联系人', en: 'Contact' }, required: { zh: '请输入联系人', en: 'Please enter the contact' }, max: 50, search: 'like', width: 110 },
    contactNumber: { type: 'string', label: { zh: '联系电话', en: 'Phone' }, max: 30, format: 'phone', width: 130 },
    address: { type: 'string', label: { zh: '联系地址', en: 'Address' }, max: 255, list: false },
    domain: { type: 'string', label: { zh: '绑定域名', en: 'Domain' }, max: 255, unique: true },
    backgroundUrl: { type: 'image', label: { zh: '系统背景', en: 'Login background' }, max: 1000, list: false },
    packageId: { type: 'ref', ref: 'tenant_package', label: { zh: '租户套餐', en: 'Package' }, width: 140 },
    accountNumber: { type: 'int', label: { zh: '账号额度', en: 'Accounts' }, min: -1, max: 1_000_000, defaultValue: -1, width: 100, help: { zh: '-1 表示不限', en: '-1: unlimited' } },
    expireTime: { type: 'datetime', label: { zh: '过期时间', en: 'Expires' }, sortable: true, width: 170 },
    adminPassword: {
      // the new tenant's admin account: set here, or generated and answered once by the create
      type: 'string', label: { zh: '管理员密码', en: 'Administrator password' }, writeOnly: true, immutable: true, max: 64,
      help: {
        zh: '新租户管理员 (admin) 的初始密码, 首次登录须修改; 留空则生成随机密码, 创建后仅显示一次',
        en: 'The initial password of the new tenant\'s administrator (admin), changed at the first sign-in; empty: a random one, shown once after the creation',
      },
    },
    datasourceId: { type: 'id', label: { zh: '数据源', en: 'Data source' }, form: false, list: false },
  },
  actions: defineActions(PATH, {
    setting: {
      method: 'POST', permission: 'tenant_setting', platform: 'admin', title: { zh: '租户授权配置', en: 'Tenants: accounts and expiry' },
      input: z.object({
        ids: idListInput.refine((v) => v !== '', { params: { kind: 'idsRequired' } }),
        accountNumber: z.coerce.number().int().min(-1).max(1_000_000).optional(),
        expireTime: z.string().trim().refine((v) => v === '' || isDateTimeText(v), { params: { kind: 'datetime' } }).optional(),
      }),
      output: okOutput,
    },
    datasource: {
      method: 'POST', permission: 'tenant_datasource', platform: 'admin', title: { zh: '租户数据源配置', en: 'Tenants: data source' },
      input: z.object({ tenantId: tenantCode, datasourceId: z.union([z.literal(''), z.string().trim().regex(/^\d{1,19}$/)]).optional() }),
      output: okOutput,
    },
    packageDetail: {
      segment: 'package-detail', method: 'GET', permission: 'tenant', platform: 'admin', title: { zh: '租户套餐详情', en: 'Tenants: package' },
      input: z.object({ tenantId: tenantCode }),
      output: z.object({ id: z.string(), packageName: z.string(), menuId: z.string(), remark: z.string().nullable() }).nullable(),
    },
    packageSetting: {
      segment: 'package-setting', method: 'POST', permission: 'tenant_package_setting', platform: 'admin', title: { zh: '租户套餐配置', en: 'Tenants: set the package' },
      input: z.object({ tenantId: tenantCode, packageId: z.union([z.literal(''), z.string().trim().regex(/^\d{1,19}$/)]).optional() }),
      output: okOutput,
    },
    select: {
      method: 'GET', permission: 'tenant', platform: 'admin', title: { zh: '租户下拉数据', en: 'Tenants: options' },
      input: z.object({}), output: z.array(z.object({ tenantId: z.string(), tenantName: z.string() })),
    },
  }),
});
