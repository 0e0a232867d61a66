import { defineResource } from '@console/contract';

/** A definition with every field type and flag of the engine (no such resource is shipped yet). */
export const gadgetResource = defineResource({
  code: 'gadget',
  path: '/api/test/gadget',
  title: { zh: '部件', en: 'Gadgets' },
  scope: 'tenant',
  nameField: 'name',
  tree: { parentField: 'parentId', ancestorsColumn: 'ancestors' },
  fields: {
    name: { type: 'string', label: { zh: '名称', en: 'Name' }, required: true, search: 'like' },
    parentId: { type: 'ref', ref: 'gadget', label: { zh: '上级', en: 'Parent' } },
    enabled: { type: 'boolean', label: { zh: '启用', en: 'Enabled' }, search: 'equal' },
    since: { type: 'date', label: { zh: '启用日期', en: 'Since' }, search: 'equal' },
    owner: { type: 'ref', ref: 'notice', label: { zh: '所属', en: 'Owner' }, search: 'equal' },
    tags: { type: 'ids', ref: 'notice', label: { zh: '标签', en: 'Tags' } },
    manual: { type: 'file', label: { zh: '说明书', en: 'Manual' } },
    photo: { type: 'image', label: { zh: '照片', en: 'Photo' } },
    secret: { type: 'string', label: { zh: '密码', en: 'Password' }, required: true, writeOnly: true },
    serial: { type: 'string', label: { zh: '序列号', en: 'Serial' }, immutable: true },
    currency: { type: 'string', label: { zh: '币种', en: 'Currency' }, dict: 'currency' },
    // minor units in the row's currency, at most ¥100,000.00 (or ¥10,000,000 in JPY)
    price: { type: 'money', currency: 'currency', label: { zh: '价格', en: 'Price' }, max: 10_000_000, sortable: true, search: 'equal' },
  },
});
