import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import { defineResource } from '../../resource.js';

export const POSTSALE_RECORD_PATH = '/api/ymy-sale/postsalerecord';

export const RECORD_KIND = { repair: 'repair', replace: 'replace', return: 'return', consult: 'consult' } as const;
/** a record's way: pending → processing (a handler took it) → done; closed from either open state */
export const RECORD_STATE = { pending: 0, processing: 1, done: 2, closed: 3 } as const;

/**
 * A service record (售后记录): a repair, replacement, return or consultation about one lock. A handler takes it
 * (processing), then finishes or closes it; finishing a replacement moves the lock's bindings and its cloud-storage
 * plan to the new lock, in the same transaction.
 */
export const postsaleRecordResource = defineResource({
  code: 'postsale_record',
  path: POSTSALE_RECORD_PATH,
  title: { zh: '售后记录', en: 'Service records' },
  scope: 'tenant',
  nameField: 'deviceSn',
  rowButtons: {
    edit: { field: 'state', values: [RECORD_STATE.pending, RECORD_STATE.processing] },
    delete: { field: 'state', values: [RECORD_STATE.pending, RECORD_STATE.closed] },
  },
  menu: {
    parent: 'postsale', route: '/postsale/record', name: { zh: '售后记录', en: 'Service records' }, sort: 3, icon: 'iconfont iconicon_doc',
    buttons: [
      {
        code: 'postsale_record_accept', name: { zh: '受理', en: 'Take' }, alias: 'accept', placement: 'row', action: 'accept',
        shownWhen: { field: 'state', values: [RECORD_STATE.pending] }, confirm: { zh: '由我受理该售后记录?', en: 'Take this service record?' },
      },
      {
        code: 'postsale_record_finish', name: { zh: '完成', en: 'Finish' }, alias: 'finish', placement: 'row', action: 'finish',
        shownWhen: { field: 'state', values: [RECORD_STATE.processing] },
        confirm: { zh: '完成该售后记录? 换货将把绑定和云存储套餐转到新设备。', en: 'Finish this record? A replacement moves the bindings and the storage plan to the new lock.' },
      },
      {
        code: 'postsale_record_close', name: { zh: '关闭', en: 'Close' }, alias: 'close', placement: 'row', action: 'close',
        shownWhen: { field: 'state', values: [RECORD_STATE.pending, RECORD_STATE.processing] }, confirm: { zh: '关闭该售后记录?', en: 'Close this service record?' },
      },
    ],
  },
  fields: {
    deviceSn: {
      type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, required: { zh: '请输入设备 SN', en: 'Please enter the device SN' },
      max: 32, upperCase: true, immutable: true, search: 'prefix', key: true, width: 170,
    },
    kind: {
      type: 'string', label: { zh: '类型', en: 'Kind' }, dict: 'postsale_kind', max: 16, required: { zh: '请选择类型', en: 'Please choose the kind' },
      immutable: true, search: 'equal', key: true, width: 90,
    },
    appUserId: { type: 'ref', ref: 'postsale_user', onRemove: 'keep', label: { zh: '用户', en: 'User' }, search: 'equal', width: 140 },
    description: { type: 'text', label: { zh: '问题描述', en: 'Problem' }, required: { zh: '请填写问题描述', en: 'Please describe the problem' }, max: 1000 },
    newDeviceSn: {
      type: 'string', label: { zh: '新设备 SN', en: 'New lock SN' }, max: 32, upperCase: true, width: 170, formWhen: { field: 'kind', values: [RECORD_KIND.replace] },
      help: { zh: '换货时填写: 完成时绑定和云存储套餐转到该设备', en: 'For a replacement: the bindings and the storage plan move to this lock when finished' },
    },
    result: { type: 'text', label: { zh: '处理结果', en: 'Result' }, max: 1000 },
    state: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'postsale_record_state', form: false, search: 'equal', key: true, width: 90, defaultValue: RECORD_STATE.pending },
    handler: { type: 'ref', ref: 'user', onRemove: 'keep', label: { zh: '处理人', en: 'Handler' }, form: false, width: 110 },
    closedTime: { type: 'datetime', label: { zh: '结束时间', en: 'Ended at' }, form: false, width: 160 },
  },
  actions: defineActions(POSTSALE_RECORD_PATH, {
    accept: { method: 'POST', permission: 'postsale_record_accept', title: { zh: '售后记录：受理', en: 'Service records: take' }, input: z.object({ id: idInput }), output: okOutput },
    finish: { method: 'POST', permission: 'postsale_record_finish', title: { zh: '售后记录：完成', en: 'Service records: finish' }, input: z.object({ id: idInput }), output: okOutput },
    close: { method: 'POST', permission: 'postsale_record_close', title: { zh: '售后记录：关闭', en: 'Service records: close' }, input: z.object({ id: idInput }), output: okOutput },
  }),
});
