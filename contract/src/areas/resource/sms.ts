import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource, idInput } from '../../resource.js';

const PATH = '/api/blade-resource/sms';

/** SMS providers (dict sms_category): Aliyun, Tencent Cloud, and a log-only one that writes the message to the usual log. */
export const SMS_CATEGORY = { aliyun: 1, tencent: 2, log: 9 } as const;

/** A configuration's state (dict resource_status, as BladeX's OSS/SMS screens): 1 off, 2 the enabled one. */
export const RESOURCE_STATUS = { disabled: 1, enabled: 2 } as const;

/** What `endpoint/send-message` answers (BladeX's SmsResponse). */
export const smsSendResult = z.object({ success: z.boolean(), code: z.string(), msg: z.string() });

/**
 * SMS configurations (blade_sms) of a tenant: one provider account and template each. At most one is
 * enabled (`enable?id`); `endpoint/send-message` sends through the one named by `code`, or the enabled one.
 * The access and secret keys are stored encrypted and answered as ******.
 */
export const smsResource = defineResource({
  code: 'sms',
  path: PATH,
  title: { zh: '短信配置', en: 'SMS' },
  scope: 'tenant',
  nameField: 'smsCode',
  menu: {
    parent: 'resource', route: '/resource/sms', name: { zh: '短信配置', en: 'SMS' }, sort: 2, icon: 'iconfont iconicon_message',
    buttons: [
      { code: 'sms_enable', name: { zh: '启用', en: 'Enable' }, alias: 'enable', placement: 'row', action: 'enable' },
      { code: 'sms_send', name: { zh: '发送测试', en: 'Send a test' }, alias: 'send', placement: 'row', action: 'send' },
    ],
  },
  fields: {
    smsCode: {
      type: 'string', label: { zh: '资源编号', en: 'Code' }, required: { zh: '请输入资源编号', en: 'Please enter the code' },
      max: 64, search: 'like', unique: true, width: 140,
    },
    category: {
      type: 'int', label: { zh: '服务商', en: 'Provider' }, dict: 'sms_category', required: { zh: '请选择服务商', en: 'Please select the provider' },
      search: 'equal', width: 120, defaultValue: SMS_CATEGORY.log,
    },
    templateId: {
      type: 'string', label: { zh: '模板编号', en: 'Template ID' }, required: { zh: '请输入模板编号', en: 'Please enter the template ID' },
      max: 64, search: 'like', width: 140,
    },
    signName: { type: 'string', label: { zh: '短信签名', en: 'Signature' }, max: 64, width: 120 },
    accessKey: { type: 'string', label: { zh: 'AccessKey', en: 'Access key' }, max: 255, secret: true, help: { zh: '腾讯云: SecretId', en: 'Tencent Cloud: SecretId' } },
    secretKey: { type: 'string', label: { zh: 'SecretKey', en: 'Secret key' }, max: 255, secret: true },
    appId: { type: 'string', label: { zh: '应用编号', en: 'App ID' }, max: 64, list: false, help: { zh: '腾讯云短信 SdkAppId', en: 'Tencent Cloud SMS SdkAppId' } },
    regionId: { type: 'string', label: { zh: '地域', en: 'Region' }, max: 64, list: false, help: { zh: '如 cn-hangzhou、ap-guangzhou', en: 'e.g. cn-hangzhou, ap-guangzhou' } },
    status: { type: 'int', label: { zh: '是否启用', en: 'Enabled' }, dict: 'resource_status', form: false, search: 'equal', width: 100 },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(PATH, {
    enable: {
      method: 'POST', permission: 'sms_enable', title: { zh: '启用短信配置', en: 'SMS: enable' },
      input: z.object({ id: idInput }), output: okOutput,
    },
    send: {
      segment: 'endpoint/send-message', method: 'POST', permission: 'sms_send', title: { zh: '发送短信', en: 'SMS: send a message' },
      input: z.object({
        /** the configuration's code; absent: the enabled one */
        code: z.string().trim().max(64).optional(),
        /** comma-joined phone numbers (or an array), at most 100 */
        phones: z.union([z.string().max(2000), z.array(z.string().max(32)).max(100)]),
        /** the template's parameters: a JSON object (or its text) */
        params: z.union([z.string().max(4000), z.record(z.string(), z.union([z.string(), z.number()]))]).optional(),
      }),
      output: smsSendResult,
    },
  }),
});
