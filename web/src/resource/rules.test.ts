import { type FieldDef } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { factoryResource } from '@console/contract/areas/production/index';
import { emergencyUnlockResource } from '@console/contract/areas/device/index';
import { paramResource, userResource } from '@console/contract/areas/system/index';
import { describe, expect, it } from 'vitest';
import { differentFrom, fieldPrompt, fieldRules, labelInSentence, type RuleMessages, sameAs } from './rules';

const messages: RuleMessages = {
  pleaseEnter: (label) => `enter ${label}`,
  pleaseSelect: (label) => `select ${label}`,
  tooLong: (label, max) => `${label} > ${max}`,
};

/** Runs a field's rules on a value as the form does: the first error's message, or null. */
async function firstError(f: FieldDef, label: string, lang: 'zh' | 'en', value: unknown): Promise<string | null> {
  for (const rule of fieldRules(f, label, lang, messages)) {
    const r = typeof rule === 'function' ? rule({} as never) : rule;
    if (!r.validator) continue;
    try {
      await (r.validator as (rule: unknown, value: unknown) => Promise<void>)({}, value);
    } catch (e) {
      return (e as Error).message;
    }
  }
  return null;
}

describe('a field\'s format', () => {
  it('is checked by the same rule in the factory, emergency and user forms, as the server checks it', async () => {
    expect(await firstError(factoryResource.fields.phone, '联系电话', 'zh', 'abc')).toBe('联系电话须是手机号码、带区号的固定电话 (如 0755-12345678) 或 400 电话');
    expect(await firstError(emergencyUnlockResource.fields.phone, 'Phone', 'en', 'abc')).toMatch(/^Phone must be a mobile number/);
    expect(await firstError(userResource.fields.phone, 'Phone', 'en', 'abc')).toBe('Phone must be a mobile number of 11 digits starting with 1');
    expect(await firstError(userResource.fields.email, 'Email', 'en', 'a@b')).toBe('Email is not a valid email address');
  });

  it('passes good values and leaves an empty optional field to the required rule', async () => {
    expect(await firstError(factoryResource.fields.phone, 'Phone', 'en', '0755-12345678')).toBeNull();
    expect(await firstError(userResource.fields.phone, 'Phone', 'en', ' 13800138000 ')).toBeNull();
    expect(await firstError(userResource.fields.phone, 'Phone', 'en', '')).toBeNull();
    expect(await firstError(userResource.fields.email, 'Email', 'en', 'zhang.san@example.com')).toBeNull();
  });
});

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
    expect(fieldRules(typed, 'Name', 'en', messages)[0]).toMatchObject({ message: 'enter name' });
    expect(fieldRules(picked, 'Kind', 'en', messages)[0]).toMatchObject({ message: 'select kind' });
  });

  it('words the placeholder like the required message, in both languages', () => {
    const { title, releaseTime, content } = noticeResource.fields;
    expect(fieldPrompt(title, 'Title', 'en', messages)).toBe('Please enter the title');
    expect(fieldPrompt(title, '通知标题', 'zh', messages)).toBe('请输入通知标题');
    expect(fieldPrompt(releaseTime, 'Release time', 'en', messages)).toBe('Please select the release time');
    expect(fieldPrompt(content, 'Content', 'en', messages)).toBe('enter content');
    expect(fieldPrompt(content, '通知内容', 'zh', messages)).toBe('enter 通知内容');
    for (const [name, f] of Object.entries(paramResource.fields)) {
      const required = fieldRules(f, name, 'en', messages).find((r) => 'required' in r);
      if (required) expect(required).toMatchObject({ message: fieldPrompt(f, name, 'en', messages) });
    }
  });

  it('puts English labels inside a sentence, keeping acronyms', () => {
    expect(labelInSentence('Parameter name', 'en')).toBe('parameter name');
    expect(labelInSentence('ID', 'en')).toBe('ID');
    expect(labelInSentence('URL of the page', 'en')).toBe('URL of the page');
    expect(labelInSentence('参数名称', 'zh')).toBe('参数名称');
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

describe('field comparison rules', () => {
  const form = (values: Record<string, string>) => ({ getFieldValue: (name: string) => values[name] }) as never;
  const check = async (rule: ReturnType<typeof sameAs>, values: Record<string, string>, value: string) => {
    const made = typeof rule === 'function' ? rule(form(values)) : rule;
    try {
      await made.validator?.({} as never, value, () => undefined);
      return 'ok';
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('sameAs passes a match or an empty field and names a mismatch', async () => {
    expect(await check(sameAs('password', '两次密码输入不一致'), { password: 'a1' }, 'a1')).toBe('ok');
    expect(await check(sameAs('password', '两次密码输入不一致'), { password: 'a1' }, '')).toBe('ok');
    expect(await check(sameAs('password', '两次密码输入不一致'), { password: 'a1' }, 'a2')).toBe('两次密码输入不一致');
  });

  it('differentFrom refuses the same value', async () => {
    expect(await check(differentFrom('oldPassword', '新密码不能与原密码相同'), { oldPassword: 'x' }, 'x')).toBe('新密码不能与原密码相同');
    expect(await check(differentFrom('oldPassword', '新密码不能与原密码相同'), { oldPassword: 'x' }, 'y')).toBe('ok');
  });
});
