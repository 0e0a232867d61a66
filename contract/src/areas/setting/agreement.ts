import { AGREEMENT_TYPES } from '../../shell.js';
import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';
import { SETTING_PATH } from './payment.js';

export const AGREEMENT_SETTING_PATH = `${SETTING_PATH}/agreement-setting`;

/**
 * The user agreement and the privacy policy (用户协议), versioned rich text per language. A version is written as a
 * draft, then published: the app's `get-agreement` and the public `/policy/:type` page show the latest published
 * version. A published version is never edited (a new version is written instead), so what a user accepted stays.
 */
export const agreementSettingResource = defineResource({
  code: 'agreement_setting',
  path: AGREEMENT_SETTING_PATH,
  title: { zh: '用户协议', en: 'Agreements' },
  scope: 'platform',
  nameField: 'title',
  defaultSort: { field: 'createTime', order: 'desc' },
  rowButtons: { edit: { field: 'published', values: [0] }, delete: { field: 'published', values: [0] } },
  menu: {
    parent: 'setting', route: '/setting/agreement', name: { zh: '用户协议', en: 'Agreements' }, sort: 2, icon: 'iconfont iconicon_doc',
    buttons: [
      {
        code: 'agreement_setting_publish', name: { zh: '发布', en: 'Publish' }, alias: 'publish', placement: 'row', action: 'publish',
        shownWhen: { field: 'published', values: [0] },
        confirm: { zh: '发布后 APP 与协议页面立即显示该版本。确定发布?', en: 'The app and the policy page show this version at once. Publish?' },
      },
    ],
  },
  fields: {
    type: {
      type: 'string', label: { zh: '协议类型', en: 'Type' }, dict: 'agreement_type', max: 16, required: { zh: '请选择协议类型', en: 'Please choose the type' },
      search: 'equal', key: true, width: 120,
    },
    language: { type: 'string', label: { zh: '语言', en: 'Language' }, dict: 'agreement_language', max: 8, required: true, defaultValue: 'zh', search: 'equal', width: 90 },
    title: { type: 'string', label: { zh: '标题', en: 'Title' }, required: { zh: '请输入标题', en: 'Please enter the title' }, max: 255, search: 'like', width: 200 },
    version: { type: 'string', label: { zh: '版本', en: 'Version' }, required: { zh: '请输入版本号', en: 'Please enter the version' }, max: 32, key: true, width: 90 },
    content: { type: 'richtext', label: { zh: '内容', en: 'Content' }, required: { zh: '请输入协议内容', en: 'Please write the text' }, max: 200_000 },
    published: { type: 'boolean', label: { zh: '已发布', en: 'Published' }, dict: 'yes_no', form: false, search: 'equal', key: true, width: 90 },
    publishTime: { type: 'datetime', label: { zh: '发布时间', en: 'Published at' }, form: false, width: 160 },
  },
  actions: defineActions(AGREEMENT_SETTING_PATH, {
    publish: {
      method: 'POST', permission: 'agreement_setting_publish', platform: 'write', title: { zh: '用户协议：发布', en: 'Agreements: publish' },
      input: z.object({ id: idInput }), output: okOutput,
    },
  }),
});

const versionView = z.object({ id: z.string(), title: z.string(), version: z.string(), content: z.string(), publishTime: z.string().nullable() });

/** BladeX's calls: each type and language with its published version and its newest draft, and a save (the engine's submit) */
export const agreementSettingActions = defineActions(SETTING_PATH, {
  read: {
    segment: 'agreement-setting', method: 'GET', permission: 'agreement_setting', title: { zh: '用户协议：读取', en: 'Agreements: read' },
    input: z.object({ type: z.enum(AGREEMENT_TYPES).optional(), language: z.enum(['zh', 'en']).optional() }),
    output: z.array(z.object({ type: z.string(), language: z.string(), published: versionView.nullable(), draft: versionView.nullable() })),
  },
  save: {
    segment: 'agreement-setting', method: 'POST', permission: 'agreement_setting', platform: 'write', title: { zh: '用户协议：保存', en: 'Agreements: save' },
    input: z.object({
      id: idInput.optional(), type: z.enum(AGREEMENT_TYPES).optional(), language: z.enum(['zh', 'en']).optional(), title: z.string().max(255).optional(),
      version: z.string().max(32).optional(), content: z.string().max(200_000).optional(),
    }).strict(),
    output: z.object({ id: z.string() }),
  },
});
