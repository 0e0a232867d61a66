import type { FieldDef } from '@console/contract';
import { vi, describe, expect, it } from 'vitest';

// the reference select loads through the API client (browser-only set-up): not needed to build columns
vi.mock('./RefSelect', () => ({ RefSelect: () => null }));
import { buildColumns } from './columns';
import { displayText, isOn } from './display';
import { fileName, safeLink } from './links';
import { createDefaults, detailFields, formValuesOf, submitValues, TREE_ROOT } from './fieldsOf';
import { joinIds, refOptions, splitIds, treeOptions } from './refOptions';
import { fieldRules, isChoice, requiredInForm, type RuleMessages } from './rules';
import { gadgetResource as def } from './testing/engineFixture';

const yesNo = { yes: '是', no: '否' };
const labels = { rangeStart: 'start', rangeEnd: 'end', yes: 'Yes', no: 'No' };
const messages: RuleMessages = { pleaseEnter: (l) => `enter ${l}`, pleaseSelect: (l) => `select ${l}`, tooLong: (l, m) => `${l} > ${m}` };
const f = def.fields;

describe('displayText of the new field types', () => {
  it('reads flags as yes/no (0/1 on the wire)', () => {
    expect(displayText(f.enabled, 1, {}, { yesNo })).toBe('是');
    expect(displayText(f.enabled, 0, {}, { yesNo })).toBe('否');
    expect(displayText(f.enabled, null, {}, { yesNo })).toBe('-');
    expect(isOn('1')).toBe(true);
    expect(isOn(0)).toBe(false);
  });

  it('shows a reference whose row is gone as deleted, with its id, never the bare id', () => {
    const record = { owner: '7', ownerName: null, tags: '1,2', tagsName: null };
    expect(displayText(f.owner, '7', {}, { name: 'owner', record, refDeleted: '已删除' })).toBe('已删除 (7)');
    expect(displayText(f.tags, '1,2', {}, { name: 'tags', record, refDeleted: 'deleted' })).toBe('deleted (1,2)');
    // a name the server did not answer at all (a custom page's record) is not a deletion
    expect(displayText(f.owner, '7', {}, { name: 'owner', record: { owner: '7' }, refDeleted: '已删除' })).toBe('7');
  });

  it('shows the server\'s <field>Name for references, id lists and dictionary codes', () => {
    const record = { owner: '7', ownerName: 'Alice', tags: '1,2', tagsName: 'a,b', kind: 1, kindName: 'Kind one' };
    expect(displayText(f.owner, '7', {}, { name: 'owner', record })).toBe('Alice');
    expect(displayText(f.tags, '1,2', {}, { name: 'tags', record })).toBe('a,b');
    const kind: FieldDef = { type: 'int', label: { zh: '类', en: 'Kind' }, dict: 'kind' };
    expect(displayText(kind, 1, { kind: [] }, { name: 'kind', record })).toBe('Kind one');
    // without the name beside it: the value (a dictionary's own label)
    expect(displayText(f.owner, '7', {})).toBe('7');
    expect(displayText(f.since, '2026-01-02', {})).toBe('2026-01-02');
    // a tree's root in the parent field
    expect(displayText(f.parentId, '0', {}, { name: 'parentId', record: { parentIdName: null } })).toBe('-');
  });

  it('names files by their last path segment and lets only safe links into href/src', () => {
    expect(fileName('/files/000000/ab/c%20d.pdf?x=1')).toBe('c d.pdf');
    expect(safeLink('/files/a.png')).toBe('/files/a.png');
    expect(safeLink('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(safeLink('javascript:alert(1)')).toBeUndefined();
    expect(safeLink('//evil.example.com/a.png')).toBeUndefined();
  });
});

describe('rules of the new field types', () => {
  it('asks to select picked fields', () => {
    for (const field of [f.enabled, f.since, f.owner, f.tags, f.manual, f.photo]) expect(isChoice(field)).toBe(true);
    expect(isChoice(f.secret)).toBe(false);
  });

  it('requires a write-only field on create only (an edit keeps the stored one when left empty)', () => {
    expect(requiredInForm(f.secret, 'create')).toBe(true);
    expect(requiredInForm(f.secret, 'edit')).toBe(false);
    expect(fieldRules(f.secret, 'Password', 'en', messages, 'edit')).toEqual([]);
    expect(fieldRules(f.secret, 'Password', 'en', messages, 'create')[0]).toMatchObject({ required: true, message: 'enter password' });
  });
});

describe('form values of the new field types', () => {
  it('starts a new record with flags off and at the top of the tree, then the preset', () => {
    expect(createDefaults(def)).toEqual({ enabled: 0, parentId: TREE_ROOT });
    expect(createDefaults(def, { parentId: '42' })).toEqual({ enabled: 0, parentId: '42' });
  });

  it('starts an edit with the password empty and leaves an empty one out of the body', () => {
    const values = formValuesOf(def, { id: '1', name: 'n', secret: 'x', serial: 's' });
    expect(values.secret).toBeUndefined();
    expect(values.serial).toBe('s');
    expect(submitValues(def, { name: 'n', secret: '' }, 'edit')).toEqual({ name: 'n' });
    expect(submitValues(def, { name: 'n', secret: null }, 'edit')).toEqual({ name: 'n' });
    expect(submitValues(def, { name: 'n', secret: 'new' }, 'edit')).toEqual({ name: 'n', secret: 'new' });
    expect(submitValues(def, { name: 'n', secret: '' }, 'create')).toEqual({ name: 'n', secret: '' });
  });

  it('never shows a write-only field in the detail', () => {
    expect(detailFields(def).map(([name]) => name)).not.toContain('secret');
  });
});

describe('reference options', () => {
  it('keeps id lists as \'1,2\' on the wire', () => {
    expect(splitIds('1, 2,,3')).toEqual(['1', '2', '3']);
    expect(splitIds(null)).toEqual([]);
    expect(joinIds(['1', 2])).toBe('1,2');
    expect(joinIds(undefined)).toBe('');
  });

  it('labels rows by their name field and keeps current values missing from the page', () => {
    const options = refOptions([{ id: '1', title: 'One' }, { id: '2', title: null }], 'title', [{ value: '9', label: 'Nine' }, { value: '1', label: 'x' }]);
    expect(options).toEqual([{ value: '9', label: 'Nine' }, { value: '1', label: 'One' }, { value: '2', label: '2' }]);
  });

  it('disables a row and its subtree as a parent of itself', () => {
    const nodes = [
      { id: '1', parentId: '0', title: 'A', key: '1', value: '1', children: [{ id: '2', parentId: '1', title: 'B', key: '2', value: '2', children: [{ id: '3', parentId: '2', title: 'C', key: '3', value: '3' }] }] },
      { id: '4', parentId: '0', title: 'D', key: '4', value: '4' },
    ];
    const options = treeOptions(nodes, '2');
    expect(options[0]?.disabled).toBeUndefined();
    expect(options[0]?.children?.[0]?.disabled).toBe(true);
    expect(options[0]?.children?.[0]?.children?.[0]?.disabled).toBe(true);
    expect(options[1]).toEqual({ title: 'D', value: '4', key: '4' });
  });
});

describe('columns of the new field types', () => {
  const columns = buildColumns<unknown>(def, { lang: 'en', dicts: {} }, labels);
  const byKey = (key: string) => columns.find((c) => c.key === key);
  type Search = { transform?: (value: unknown) => Record<string, unknown> };
  const transform = (key: string) => (byKey(key)?.search as Search | undefined)?.transform;

  it('never makes a write-only field a column', () => {
    expect(byKey('secret')).toBeUndefined();
  });

  it('searches flags with a yes/no select sent as <field>_equal', () => {
    expect(byKey('enabled')?.valueType).toBe('select');
    expect((byKey('enabled')?.fieldProps as { options: unknown }).options).toEqual([{ label: 'Yes', value: 1 }, { label: 'No', value: 0 }]);
    expect(transform('enabled')?.(1)).toEqual({ enabled_equal: 1 });
  });

  it('searches references with a reference select and dates by the day', () => {
    expect(byKey('owner')?.renderFormItem).toBeTypeOf('function');
    expect(transform('owner')?.('7')).toEqual({ owner_equal: '7' });
    expect(byKey('since')?.valueType).toBe('date');
    expect(transform('since')?.('2026-03-04')).toEqual({ since_equal: '2026-03-04' });
    expect(transform('since')?.(undefined)).toEqual({});
  });
});

describe('sizes and uploaded names', () => {
  it('shows a field of bytes as B / KB / MB and a file link by the name it was uploaded with', () => {
    const size: FieldDef = { type: 'int', label: { zh: '文件大小', en: 'Size' }, bytes: true };
    expect(displayText(size, 512, {})).toBe('512 B');
    expect(displayText(size, 4096, {})).toBe('4 KB');
    expect(displayText(size, 3_170_000, {})).toBe('3.02 MB');
    expect(fileName('/files/000000/20260101/0123456789abcdef0123456789abcdef.pdf/%E4%BA%A7%E5%93%81%E8%AF%B4%E6%98%8E%E4%B9%A6.pdf')).toBe('产品说明书.pdf');
  });
});
