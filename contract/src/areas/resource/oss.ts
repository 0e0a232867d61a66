import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource, idInput } from '../../resource.js';

const PATH = '/api/blade-resource/oss';

/** Storage kinds (dict oss_category): the server's local disk, or an S3-compatible store (MinIO, AWS S3, COS, OSS). */
export const OSS_CATEGORY = { local: 1, s3: 2 } as const;

/**
 * Object storage configurations (blade_oss) of a tenant. The enabled one (`enable?id`, at most one) receives
 * uploads (`endpoint/put-file`); without one, files go to the local disk. Each attachment records which
 * configuration holds it, so files stay reachable after another one is enabled. Keys are stored encrypted
 * and answered as ******.
 */
export const ossResource = defineResource({
  code: 'oss',
  path: PATH,
  title: { zh: '对象存储', en: 'Object storage' },
  scope: 'tenant',
  nameField: 'ossCode',
  menu: {
    parent: 'resource', route: '/resource/oss', name: { zh: '对象存储', en: 'Object storage' }, sort: 1, icon: 'iconfont iconicon_cloud_history',
    buttons: [{ code: 'oss_enable', name: { zh: '启用', en: 'Enable' }, alias: 'enable', placement: 'row', action: 'enable' }],
  },
  fields: {
    ossCode: {
      type: 'string', label: { zh: '资源编号', en: 'Code' }, required: { zh: '请输入资源编号', en: 'Please enter the code' },
      max: 64, search: 'like', unique: true, width: 140,
    },
    category: {
      type: 'int', label: { zh: '存储类型', en: 'Kind' }, dict: 'oss_category', required: { zh: '请选择存储类型', en: 'Please select the kind' },
      search: 'equal', width: 140, defaultValue: OSS_CATEGORY.local,
    },
    endpoint: {
      type: 'string', label: { zh: '资源地址', en: 'Endpoint' }, max: 255, width: 220,
      help: { zh: 'S3 兼容服务的地址, 如 https://minio.example.com:9000 (AWS S3 可留空)', en: 'The S3-compatible service, e.g. https://minio.example.com:9000 (empty for AWS S3)' },
    },
    bucketName: { type: 'string', label: { zh: '空间名', en: 'Bucket' }, max: 255, width: 140 },
    accessKey: { type: 'string', label: { zh: 'AccessKey', en: 'Access key' }, max: 255, secret: true },
    secretKey: { type: 'string', label: { zh: 'SecretKey', en: 'Secret key' }, max: 255, secret: true },
    region: { type: 'string', label: { zh: '地域', en: 'Region' }, max: 64, list: false, help: { zh: '如 us-east-1 (默认)', en: 'e.g. us-east-1 (the default)' } },
    appId: { type: 'string', label: { zh: '应用编号', en: 'App ID' }, max: 64, list: false },
    status: { type: 'int', label: { zh: '是否启用', en: 'Enabled' }, dict: 'resource_status', form: false, search: 'equal', width: 100 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(PATH, {
    enable: {
      method: 'POST', permission: 'oss_enable', title: { zh: '启用存储配置', en: 'Object storage: enable' },
      input: z.object({ id: idInput }), output: okOutput,
    },
  }),
});
