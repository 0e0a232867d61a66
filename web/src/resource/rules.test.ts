import { noticeResource, paramResource, type FieldDef } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { fieldRules, type RuleMessages } from './rules';

const messages: RuleMessages = {
  pleaseEnter: (label) => `enter ${label}`,
  pleaseSelect: (label) => `select ${label}`,
  tooLong: (label, max) => `${label} > ${max}`,
};

describe('fieldRules', () => {
  it('uses the definition\'s own required message in the UI language', () => {
    const [required] = fieldRules(paramResource.fields.paramName, '参数名称', 'zh', messages);
    expect(required).toEqual({ required: true, whitespace: true, message: '请输入参数名称' });
    const [requiredEn] = fieldRules(paramResource.fields.paramName, 'Parameter name', 'en', messages);
    expect(requiredEn).toMatchObject({ message: 'Please enter the parameter name' });
  });

  it('falls back to "enter" for typed fields and "select" for picked ones', () => {
    const typed: FieldDef = { type: 'string', label: { zh: '名', en: 'Name' }, required: true };
    const picked: FieldDef = { type: 'int', label: { zh: '类', en: 'Kind' }, required: true, dict: 'kind' };
    expect(fieldRules(typed, 'Name', 'en', messages)[0]).toMatchObject({ message: 'enter Name' });
    expect(fieldRules(picked, 'Kind', 'en', messages)[0]).toMatchObject({ message: 'select Kind' });
  });

  it('adds no string-only keys to non-text fields (a number must pass `required`)', () => {
    for (const name of ['category', 'releaseTime'] as const) {
      expect(fieldRules(noticeResource.fields[name], name, 'zh', messages)).toEqual([
        { required: true, message: expect.any(String) },
      ]);
    }
  });

  it('limits the length of texts', () => {
    const rules = fieldRules(paramResource.fields.remark, 'Remark', 'en', messages);
    expect(rules).toEqual([{ type: 'string', max: 500, message: 'Remark > 500' }]);
  });
});
