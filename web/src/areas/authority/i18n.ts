/** Strings of the roles screen (lazy: registered by its chunk, i18n/lazy.ts). */
export const authorityZh = {
  roles: {
    grant: '权限设置',
    grantTitle: '权限设置 — {{names}}',
    grantMany: '所选的 {{n}} 个角色将被设置为相同的权限',
    menuTab: '菜单权限',
    dataTab: '数据权限',
    apiTab: '接口权限',
    noScopes: '暂无可配置的权限',
    otherMenu: '其他',
    granted: '权限设置成功',
    checkAll: '全选',
    expandAll: '展开全部',
  },
};

export const authorityEn: typeof authorityZh = {
  roles: {
    grant: 'Permissions',
    grantTitle: 'Permissions — {{names}}',
    grantMany: 'The {{n}} roles selected get the same permissions',
    menuTab: 'Menus',
    dataTab: 'Data scopes',
    apiTab: 'API scopes',
    noScopes: 'No scopes to grant',
    otherMenu: 'Other',
    granted: 'Permissions saved',
    checkAll: 'Select all',
    expandAll: 'Expand all',
  },
};
