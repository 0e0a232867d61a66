import { defineResource } from '../../resource.js';

export const POSTSALE_DEVICE_PATH = '/api/ymy-sale/postsaledevice';

export const BINDING_ROLE = { owner: 'owner', member: 'member' } as const;
export type BindingRole = (typeof BINDING_ROLE)[keyof typeof BINDING_ROLE];

/**
 * Who holds which lock (售后设备): the owner bound it in the app by its SN, members were shared it by the owner. A
 * lock has at most one owner (the database's key); unbinding the owner unbinds its members too. The console lists
 * the bindings and may bind a lock for an owner, or unbind one, as the after-sales lead does on the phone.
 */
export const postsaleDeviceResource = defineResource({
  code: 'postsale_device',
  path: POSTSALE_DEVICE_PATH,
  title: { zh: '售后设备', en: 'User devices' },
  scope: 'tenant',
  nameField: 'deviceSn',
  defaultSort: { field: 'bindTime', order: 'desc' },
  menu: { parent: 'postsale', route: '/postsale/device', name: { zh: '售后设备', en: 'User devices' }, sort: 2, icon: 'iconfont iconicon_lock' },
  fields: {
    deviceSn: {
      type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' },
      max: 32, upperCase: true, immutable: true, search: 'prefix', key: true, width: 170,
    },
    appUserId: {
      type: 'ref', ref: 'postsale_user', onRemove: 'cascade', label: { zh: '用户', en: 'User' },
      required: { zh: '请选择用户', en: 'Please choose the user' }, immutable: true, search: 'equal', key: true, width: 140,
    },
    role: {
      type: 'string', label: { zh: '身份', en: 'Role' }, dict: 'binding_role', max: 16, required: true, immutable: true,
      defaultValue: BINDING_ROLE.owner, search: 'equal', key: true, width: 90,
    },
    nickname: { type: 'string', label: { zh: '设备备注名', en: 'Name in the app' }, max: 64, width: 140 },
    productId: { type: 'ref', ref: 'product_info', onRemove: 'keep', label: { zh: '产品', en: 'Product' }, form: false, width: 160 },
    firmwareVersion: { type: 'string', label: { zh: '固件版本', en: 'Firmware' }, form: false, virtual: true, width: 110 },
    bindTime: { type: 'datetime', label: { zh: '绑定时间', en: 'Bound at' }, form: false, sortable: true, search: 'dateRange', width: 160 },
  },
});
