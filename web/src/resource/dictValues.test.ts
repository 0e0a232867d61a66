import type { DictItem, FieldDef } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { dictLabel, dictOptions } from './dictValues';

const item = (dictKey: string, dictValue: string): DictItem => ({ id: dictKey, code: 'flow', dictKey, dictValue, sort: 1, remark: '' });
const DICTS = { flow: [item('1', '请假流程'), item('2', '通用审批')] };
const plain: FieldDef = { type: 'string', label: { zh: '分类', en: 'Category' }, dict: 'flow' };
const prefixed: FieldDef = { ...plain, dictPrefixed: true };

describe('dictionary values of a field', () => {
  it('offers the dictKey, or `<code>_<dictKey>` for a prefixed field, as the server stores it', () => {
    expect(dictOptions(plain, DICTS)).toEqual([{ label: '请假流程', value: '1' }, { label: '通用审批', value: '2' }]);
    expect(dictOptions(prefixed, DICTS)).toEqual([{ label: '请假流程', value: 'flow_1' }, { label: '通用审批', value: 'flow_2' }]);
  });

  it('labels a prefixed value by its dictKey, and shows an unknown value as it is', () => {
    expect(dictLabel(prefixed, DICTS, 'flow_2')).toBe('通用审批');
    expect(dictLabel(prefixed, DICTS, '2')).toBe('通用审批');
    expect(dictLabel(prefixed, DICTS, 'flow_9')).toBe('flow_9');
    expect(dictLabel(plain, DICTS, 'flow_2')).toBe('flow_2');
  });
});
