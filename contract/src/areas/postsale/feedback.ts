import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';

export const FEEDBACK_PATH = '/api/ymy-feedback/feedback';
export const FEEDBACK_REPLY_PATH = '/api/ymy-feedback/reply';

/** new → replied (a reply was written) → closed (explicitly); a reply to a closed feedback is refused */
export const FEEDBACK_STATE = { new: 0, replied: 1, closed: 2 } as const;
/** the most images one feedback carries */
export const FEEDBACK_MAX_IMAGES = 9;

/** Feedback from the app (意见反馈): what the lock owner wrote, with images, the lock and the app's version. */
export const feedbackResource = defineResource({
  code: 'feedback',
  path: FEEDBACK_PATH,
  title: { zh: '意见反馈', en: 'Feedback' },
  scope: 'tenant',
  nameField: 'content',
  buttons: { add: false, edit: false },
  menu: {
    parent: 'postsale', route: '/postsale/feedback', name: { zh: '意见反馈', en: 'Feedback' }, sort: 4, icon: 'iconfont iconicon_message',
    buttons: [
      { code: 'feedback_reply', name: { zh: '回复', en: 'Reply' }, alias: 'reply', placement: 'row' },
      {
        code: 'feedback_close', name: { zh: '关闭', en: 'Close' }, alias: 'close', placement: 'row', action: 'close',
        shownWhen: { field: 'state', values: [FEEDBACK_STATE.new, FEEDBACK_STATE.replied] }, confirm: { zh: '关闭该反馈? 关闭后不能再回复。', en: 'Close this feedback? It can no longer be replied to.' },
      },
    ],
  },
  fields: {
    content: { type: 'text', label: { zh: '反馈内容', en: 'Feedback' }, max: 2000, list: true, search: 'like', width: 260 },
    kind: { type: 'string', label: { zh: '类型', en: 'Kind' }, dict: 'feedback_kind', max: 16, search: 'equal', width: 90 },
    state: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'feedback_state', form: false, search: 'equal', key: true, width: 90, defaultValue: FEEDBACK_STATE.new },
    phone: { type: 'string', label: { zh: '手机号', en: 'Phone' }, max: 32, search: 'like', key: true, width: 130 },
    appUserId: { type: 'ref', ref: 'postsale_user', onRemove: 'keep', label: { zh: '用户', en: 'User' }, list: false },
    deviceSn: { type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, max: 32, upperCase: true, search: 'prefix', width: 170 },
    appVersion: { type: 'string', label: { zh: 'APP 版本', en: 'App version' }, max: 32, width: 100 },
    images: { type: 'image', multiple: true, label: { zh: '图片', en: 'Images' }, max: 9000, list: false },
    replyCount: { type: 'int', label: { zh: '回复数', en: 'Replies' }, form: false, width: 80 },
  },
  actions: defineActions(FEEDBACK_PATH, {
    close: { method: 'POST', permission: 'feedback_close', title: { zh: '意见反馈：关闭', en: 'Feedback: close' }, input: z.object({ id: idInput }), output: okOutput },
  }),
});

/** A reply to a feedback, written in the console; the app reads it with the feedback. */
export const feedbackReplyResource = defineResource({
  code: 'feedback_reply_list',
  path: FEEDBACK_REPLY_PATH,
  title: { zh: '回复', en: 'Replies' },
  scope: 'tenant',
  nameField: 'content',
  createOnly: true,
  defaultSort: { field: 'createTime', order: 'asc' },
  within: { parent: 'feedback', field: 'feedbackId', codes: { add: 'feedback_reply', edit: 'feedback_reply', delete: 'feedback_reply', view: 'feedback' } },
  fields: {
    feedbackId: { type: 'ref', ref: 'feedback', onRemove: 'cascade', label: { zh: '反馈', en: 'Feedback' }, required: true, immutable: true, list: false },
    content: { type: 'text', label: { zh: '回复内容', en: 'Reply' }, required: { zh: '请输入回复内容', en: 'Please write the reply' }, max: 2000, list: true, width: 360 },
    replier: { type: 'ref', ref: 'user', onRemove: 'keep', label: { zh: '回复人', en: 'By' }, form: false, width: 110 },
  },
});
