import { useLang } from '../../i18n';

/**
 * The words of the tenant, package and top-menu screens. They live in these screens' lazy chunk (not in
 * i18n/zh.ts, which the first page after sign-in loads); en mirrors zh's shape, checked by the type.
 */
const zh = {
  buttonTag: '按钮',
  menuCount: '菜单数',
  menusOf: (n: number) => `${n} 个菜单`,
  treeLoading: '正在加载菜单…',
  tenantCreated: (id: string) => `租户已创建, 租户ID: ${id} (管理员账号 admin)`,
  adminPasswordTitle: '新租户管理员密码',
  adminPasswordOnce: '该密码只显示这一次, 请立即复制并安全地交给租户管理员; 管理员首次登录须修改密码',
  adminPasswordTenant: '租户ID',
  adminPasswordAccount: '管理员账号',
  adminPasswordLabel: '初始密码',
  adminPasswordDone: '已复制保存',
  expired: '过期',
  unlimited: '不限',
  noExpiry: '长期有效',
  selectedTenants: (n: number) => `已选 ${n} 个租户`,
  expireHelp: '留空表示长期有效',
  saved: '配置成功',
  currentPackage: '当前套餐',
  noPackage: '未配置套餐',
  packageLabel: '租户套餐',
  packagePlaceholder: '请选择套餐',
  packageHelp: '更换套餐后, 该租户角色中套餐以外的菜单授权将被移除; 不选择套餐则该租户不受套餐限制',
  datasourceLabel: '数据源ID',
  datasourcePlaceholder: '请输入数据源ID',
  datasourceHelp: '系统中暂无数据源管理, 请直接填写数据源ID; 留空则使用默认数据源',
  datasourceInvalid: '数据源ID只能是数字',
  topMenus: (names: string) => `顶部菜单: ${names}`,
  topMenuHelp: '勾选的菜单 (及其下级) 显示在所选顶部菜单中; 保存将覆盖所选顶部菜单原有的配置',
};

export type TenantText = typeof zh;

const en: TenantText = {
  buttonTag: 'Button',
  menuCount: 'Menus',
  menusOf: (n) => `${n} menu${n === 1 ? '' : 's'}`,
  treeLoading: 'Loading the menus…',
  tenantCreated: (id) => `Tenant created, ID ${id} (administrator account admin)`,
  adminPasswordTitle: 'The new tenant\'s administrator password',
  adminPasswordOnce: 'This password is shown this once: copy it now and hand it safely to the tenant\'s administrator, who changes it at the first sign-in',
  adminPasswordTenant: 'Tenant ID',
  adminPasswordAccount: 'Administrator account',
  adminPasswordLabel: 'Initial password',
  adminPasswordDone: 'I have saved it',
  expired: 'Expired',
  unlimited: 'Unlimited',
  noExpiry: 'No expiry',
  selectedTenants: (n) => `${n} tenant${n === 1 ? '' : 's'} selected`,
  expireHelp: 'Leave empty for no expiry',
  saved: 'Saved',
  currentPackage: 'Current package',
  noPackage: 'No package',
  packageLabel: 'Package',
  packagePlaceholder: 'Please select a package',
  packageHelp: 'After a change, grants outside the new package are removed from the tenant\'s roles; without a package the tenant is not limited by one',
  datasourceLabel: 'Data source ID',
  datasourcePlaceholder: 'Please enter the data source ID',
  datasourceHelp: 'There is no data source screen yet: enter the data source ID itself; leave empty for the default data source',
  datasourceInvalid: 'The data source ID is a number',
  topMenus: (names) => `Top menus: ${names}`,
  topMenuHelp: 'The checked menus (and those under them) show under the selected top menus; saving replaces their previous menus',
};

export const TENANT_TEXT = { zh, en } as const;

export function useTenantText(): TenantText {
  return TENANT_TEXT[useLang()];
}
