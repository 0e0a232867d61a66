import { z } from 'zod';
import type { ActionDef } from '../../action.js';
import { API } from '../../paths.js';
import { defineResource } from '../../resource.js';

const PATH = '/api/blade-resource/attach';

/**
 * Attachments (blade_attach): the register of uploaded files (`put-file` adds a row). Listed, viewed and
 * removed (the row leaves the tenant's storage quota and the stored bytes are deleted); never edited.
 * `download?id=` sends the file; it takes the token as `?blade-auth=` too, so a plain link works.
 */
export const attachResource = defineResource({
  code: 'attach',
  path: PATH,
  title: { zh: '附件管理', en: 'Attachments' },
  scope: 'tenant',
  readOnly: true,
  removable: true,
  buttons: { add: false, edit: false },
  nameField: 'originalName',
  menu: {
    parent: 'resource', route: '/resource/attach', name: { zh: '附件管理', en: 'Attachments' }, sort: 3, icon: 'iconfont iconicon_savememo',
    buttons: [
      { code: 'attach_upload', name: { zh: '上传', en: 'Upload' }, alias: 'upload', placement: 'toolbar', action: 'upload', custom: true },
      { code: 'attach_download', name: { zh: '下载', en: 'Download' }, alias: 'download', placement: 'row', action: 'download', custom: true },
    ],
  },
  fields: {
    originalName: { type: 'string', label: { zh: '附件原名', en: 'File name' }, max: 500, search: 'like', width: 240 },
    extension: { type: 'string', label: { zh: '扩展名', en: 'Extension' }, max: 16, search: 'equal', width: 90 },
    contentType: { type: 'string', label: { zh: '文件类型', en: 'Content type' }, max: 100, width: 150 },
    attachSize: { type: 'number', label: { zh: '大小 (字节)', en: 'Size (bytes)' }, sortable: true, width: 120 },
    link: { type: 'file', label: { zh: '附件地址', en: 'Link' }, max: 1000 },
    domainUrl: { type: 'string', label: { zh: '附件域名', en: 'Domain' }, max: 255, list: false },
    name: { type: 'string', label: { zh: '存储键', en: 'Storage key' }, max: 500, list: false },
    sha256: { type: 'string', label: { zh: 'SHA-256', en: 'SHA-256' }, max: 64, list: false },
    ossId: { type: 'ref', ref: 'oss', label: { zh: '存储配置', en: 'Storage' }, help: { zh: '空: 本地磁盘', en: 'Empty: local disk' }, width: 140 },
  },
  actions: {
    /** the upload the toolbar button opens (multipart `file`; any signed-in user may upload) */
    upload: {
      path: API.putFile, method: 'POST', permission: null, title: { zh: '上传附件', en: 'Upload a file' },
      input: z.object({}), output: z.unknown(),
    } satisfies ActionDef,
    /** the bytes of one attachment, as a download (not an envelope) */
    download: {
      path: `${PATH}/download`, method: 'GET', permission: 'attach_download', title: { zh: '下载附件', en: 'Download a file' },
      input: z.object({ id: z.string() }), output: z.unknown(),
    } satisfies ActionDef,
  },
});
