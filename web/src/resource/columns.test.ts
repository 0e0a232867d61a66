import { noticeResource } from '@console/contract/areas/desk/index';
import { paramResource } from '@console/contract/areas/system/index';
import { logApiResource } from '@console/contract/areas/monitor/index';
import { areaDispatchOaResource, areaDispatchResource, areaModifyLogResource, areaOaResource, deviceAreaResource } from '@console/contract/areas/supplier/index';
import type { ProColumns } from '@ant-design/pro-components';
import dayjs from 'dayjs';
import { vi, describe, expect, it } from 'vitest';

// the reference select loads through the API client (browser-only set-up): not needed to build columns
vi.mock('./RefSelect', () => ({ RefSelect: () => null }));
import { applyColumnsOverride, buildColumns, COLUMN_WIDTHS, fitColumns, rangeKey, sizeColumns, textWidth, withFit, withKeyboardSorting } from './columns';

const labels = { rangeStart: 'start', rangeEnd: 'end', yes: 'yes', no: 'no' };
const dicts = { notice: [{ id: '1', code: 'notice', dictKey: '1', dictValue: '发布通知', sort: 1, remark: '' }] };

type Search = { transform?: (value: unknown) => Record<string, unknown> };
function transformOf(column: ProColumns<unknown> | undefined): Search['transform'] {
  return (column?.search as Search | undefined)?.transform;
}

describe('buildColumns', () => {
  const columns = buildColumns<unknown>(noticeResource, { lang: 'zh', dicts }, labels);
  const byKey = (key: string) => columns.find((c) => c.key === key);

  it('lists the listed fields and createTime, in definition order', () => {
    const shown = columns.filter((c) => !c.hideInTable).map((c) => c.key);
    expect(shown).toEqual(['title', 'category', 'releaseTime', 'createTime']);
  });

  it('searches like fields by their plain key and equal fields by <field>_equal', () => {
    expect(byKey('title')?.hideInSearch).toBe(false);
    expect(transformOf(byKey('title'))).toBeUndefined();
    expect(transformOf(byKey('category'))?.('1')).toEqual({ category_equal: '1' });
    expect(byKey('releaseTime')?.hideInSearch).toBe(true);
  });

  it('offers dictionary fields as a select of their dictionary', () => {
    const category = byKey('category');
    expect(category?.valueType).toBe('select');
    expect((category?.fieldProps as { options: unknown }).options).toEqual([{ label: '发布通知', value: 1 }]);
  });

  it('searches createTime by a day range sent as _datege / _datele covering whole days', () => {
    const range = byKey(rangeKey('createTime'));
    expect(range?.hideInTable).toBe(true);
    expect(transformOf(range)?.(['2026-01-02', '2026-01-05'])).toEqual({
      createTime_datege: '2026-01-02 00:00:00',
      createTime_datele: '2026-01-05 23:59:59',
    });
    expect(transformOf(range)?.([dayjs('2026-03-01 15:00:00'), dayjs('2026-03-01 16:00:00')])).toEqual({
      createTime_datege: '2026-03-01 00:00:00',
      createTime_datele: '2026-03-01 23:59:59',
    });
    expect(transformOf(range)?.(undefined)).toEqual({});
  });

  it('opens a time-partitioned log\'s range on its last days (the server\'s default), and no other range', () => {
    const logs = buildColumns<unknown>(logApiResource, { lang: 'zh', dicts }, labels);
    const [start, end] = logs.find((c) => c.key === rangeKey('createTime'))?.initialValue as [dayjs.Dayjs, dayjs.Dayjs];
    expect(end.format('YYYY-MM-DD')).toBe(dayjs().format('YYYY-MM-DD'));
    expect(end.startOf('day').diff(start, 'day')).toBe(logApiResource.recent!.days - 1);
    expect(byKey(rangeKey('createTime'))?.initialValue).toBeUndefined();
  });

  it('labels columns in the UI language', () => {
    const en = buildColumns<unknown>(paramResource, { lang: 'en', dicts: {} }, labels);
    expect(en.find((c) => c.key === 'paramName')?.title).toBe('Parameter name');
  });
});

describe('applyColumnsOverride', () => {
  const columns = buildColumns<unknown>(paramResource, { lang: 'zh', dicts: {} }, labels);
  const ctx = { lang: 'zh' as const, dicts: {} };

  it('patches and drops columns by key', () => {
    const out = applyColumnsOverride(columns, { paramName: { width: 99 }, paramValue: false }, ctx);
    expect(out.find((c) => c.key === 'paramName')?.width).toBe(99);
    expect(out.some((c) => c.key === 'paramValue')).toBe(false);
    expect(out).toHaveLength(columns.length - 1);
  });

  it('hands the whole list to a function', () => {
    const out = applyColumnsOverride(columns, (cols) => [...cols, { key: 'extra', title: 'Extra' }], ctx);
    expect(out.at(-1)?.key).toBe('extra');
  });
});

describe('column widths', () => {
  const columns = buildColumns<unknown>(paramResource, { lang: 'zh', dicts: {} }, labels);
  const byKey = (key: string) => columns.find((c) => c.key === key);

  it('gives every table column a width by its type, wide enough for its header, and an ellipsis', () => {
    expect(byKey('paramName')?.width).toBe(COLUMN_WIDTHS.string);
    expect(byKey('paramValue')?.width).toBe(COLUMN_WIDTHS.text);
    expect(byKey('createTime')?.width).toBe(COLUMN_WIDTHS.datetime);
    expect(columns.filter((c) => !c.hideInTable).every((c) => c.ellipsis === true)).toBe(true);
    const long = { ...paramResource, fields: { x: { type: 'int' as const, label: { zh: 'x', en: 'A very long column label here' }, sortable: true } } };
    const en = buildColumns<unknown>(long, { lang: 'en', dicts: {} }, labels);
    expect(en.find((c) => c.key === 'x')?.width).toBe(textWidth('A very long column label here') + 32 + 28);
  });

  it('fills in missing widths and sums the table\'s scroll width (search-only columns left out)', () => {
    const { columns: sized, width } = sizeColumns<unknown>([{ key: 'a', width: 100 }, { key: 'b' }, { key: 'c', hideInTable: true }], true);
    expect(sized[1]?.width).toBe(COLUMN_WIDTHS.other);
    expect(sized[2]?.width).toBeUndefined();
    expect(width).toBe(COLUMN_WIDTHS.selection + 100 + COLUMN_WIDTHS.other);
  });

  it('measures CJK labels wider than Latin ones', () => {
    expect(textWidth('参数')).toBe(28);
    expect(textWidth('ab')).toBe(16);
  });
});

describe('withKeyboardSorting', () => {
  it('hands antd sortable titles as text (its header name) and sorts on Space', () => {
    const [sortable, plain] = withKeyboardSorting<unknown>([{ key: 'a', title: 'Name', sorter: true }, { key: 'b', title: 'Other' }]);
    expect(typeof sortable?.title).toBe('function');
    expect((sortable?.title as () => string)()).toBe('Name');
    expect(plain?.title).toBe('Other');
    let clicked = 0;
    let prevented = false;
    const th = { click: () => (clicked += 1) };
    const props = sortable?.onHeaderCell?.({}) as { onKeyDownCapture: (e: unknown) => void };
    props.onKeyDownCapture({ key: ' ', target: th, currentTarget: th, preventDefault: () => (prevented = true) });
    props.onKeyDownCapture({ key: 'a', target: th, currentTarget: th, preventDefault: () => undefined });
    expect(clicked).toBe(1);
    expect(prevented).toBe(true);
  });
});

describe('fitColumns', () => {
  const col = (key: string, width: number, extra: Partial<ProColumns<unknown>> = {}): ProColumns<unknown> => ({ key, dataIndex: key, title: key, width, ...extra });
  const keyed = (key: string, width: number) => ({ ...col(key, width), ...withFit({ keep: true, min: width }) });
  const actions = col('option', 200, { valueType: 'option', fixed: 'right' });

  it('leaves columns that fit as they are', () => {
    const columns = [col('name', 160), keyed('state', 90), actions];
    const fitted = fitColumns(columns, true, 1000);
    expect(fitted.width).toBe(48 + 160 + 90 + 200);
    expect(fitted.columns.map((c) => c.width)).toEqual([160, 90, 200]);
  });

  it('shrinks the columns that give way towards their headers, and keeps the kept ones and the actions', () => {
    const columns = [col('name', 200), col('remark', 300), keyed('state', 90), actions];
    const fitted = fitColumns(columns, false, 700);
    expect(fitted.width).toBeLessThanOrEqual(700);
    const width = (key: string) => fitted.columns.find((c) => c.key === key)?.width as number;
    expect(width('state')).toBe(90);
    expect(width('option')).toBe(200);
    expect(width('remark')).toBeLessThan(300);
    expect(width('name')).toBeLessThan(200);
    // never below the header (text width + padding)
    expect(width('name')).toBeGreaterThanOrEqual(textWidth('name') + 32);
    expect(fitted.columns.map((c) => c.key)).toEqual(['name', 'remark', 'state', 'option']);
  });

  it('moves the kept columns up behind the first one when shrinking is not enough', () => {
    const columns = [col('name', 160), col('a', 160), col('b', 160), keyed('state', 90), keyed('count', 80), col('hidden', 100, { hideInTable: true }), actions];
    const fitted = fitColumns(columns, true, 500);
    expect(fitted.columns.filter((c) => !c.hideInTable).map((c) => c.key)).toEqual(['name', 'state', 'count', 'a', 'b', 'option']);
    expect(fitted.columns.find((c) => c.key === 'state')?.width).toBe(90);
    // a search-only column keeps its place, and the search form its order (higher first)
    expect(fitted.columns.map((c) => c.key).indexOf('hidden')).toBe(5);
    const searchOrder = [...fitted.columns].sort((x, y) => (y.order ?? 0) - (x.order ?? 0)).map((c) => c.key);
    expect(searchOrder).toEqual(['name', 'a', 'b', 'state', 'count', 'hidden', 'option']);
  });

  it('marks a definition\'s key fields as kept: they keep their width', () => {
    const def = { ...paramResource, fields: { ...paramResource.fields, paramValue: { ...paramResource.fields.paramValue, key: true as const, width: 150 } } };
    const built = sizeColumns(buildColumns<unknown>(def, { lang: 'zh', dicts: {} }, labels), false).columns.filter((c) => !c.hideInTable);
    const fitted = fitColumns(built, false, 300);
    expect(fitted.columns.find((c) => c.key === 'paramValue')?.width).toBe(150);
    expect(fitted.columns.filter((c) => !c.hideInTable)[1]?.key).toBe('paramValue');
  });

  it('lets the kept columns give way towards their headers when even they do not fit, never the row actions', () => {
    const keyedMin = (key: string, width: number, min: number) => ({ ...col(key, width), ...withFit({ keep: true, min }) });
    const columns = [col('name', 160), keyedMin('roles', 160, 90), keyedMin('state', 100, 80), col('remark', 200), actions];
    const fitted = fitColumns(columns, true, 560);
    const width = (key: string) => fitted.columns.find((c) => c.key === key)?.width as number;
    expect(width('option')).toBe(200);
    expect(width('roles')).toBeLessThan(160);
    expect(width('roles')).toBeGreaterThanOrEqual(90);
    expect(width('state')).toBeGreaterThanOrEqual(80);
    const shown = fitted.columns.filter((c) => !c.hideInTable);
    // in view: the selection, the first column, the kept ones and the actions fit the window
    expect(48 + width('name') + width('roles') + width('state') + width('option')).toBeLessThanOrEqual(560);
    expect(shown.map((c) => c.key)).toEqual(['name', 'roles', 'state', 'remark', 'option']);
  });

  it('never sizes a column narrower than its header (a width set for the Chinese label)', () => {
    const narrow = { ...col('succeeded', 70), ...withFit({ keep: false, min: textWidth('Succeeded') + 32 }) };
    expect(sizeColumns([narrow], false).columns[0]!.width).toBe(textWidth('Succeeded') + 32);
  });

  it('does nothing before the table is measured', () => {
    const columns = [col('name', 900), actions];
    expect(fitColumns(columns, false, 0).width).toBe(1100);
  });
});

describe('region paths in the search form', () => {
  const byKey = (def: Parameters<typeof buildColumns>[0], key: string) => buildColumns<unknown>(def, { lang: 'zh', dicts: {} }, labels).find((c) => c.key === key);

  it('a region search picks in the tree and sends the picked region, the path\'s last code, as <field>_likeright', () => {
    for (const def of [deviceAreaResource, areaDispatchResource]) {
      const code = byKey(def, 'code');
      expect(code?.hideInSearch, def.code).toBe(false);
      expect(code?.hideInTable, def.code).toBe(true);
      expect(code?.renderFormItem, def.code).toBeTypeOf('function');
      expect(transformOf(code)?.('330000,330100')).toEqual({ code_likeright: '330100' });
      expect(transformOf(code)?.('330000')).toEqual({ code_likeright: '330000' });
      expect(transformOf(code)?.(undefined)).toEqual({});
    }
  });

  it('an equal search of a region path picks in the tree and sends the whole path as <field>_equal', () => {
    for (const def of [areaOaResource, areaDispatchOaResource]) {
      const code = byKey(def, 'code');
      expect(code?.renderFormItem, def.code).toBeTypeOf('function');
      expect(transformOf(code)?.('330000,330100,330106')).toEqual({ code_equal: '330000,330100,330106' });
      expect(transformOf(code)?.('')).toEqual({});
    }
  });

  it('shows the names the server answers beside a path (virtual fields) as columns, never in the search form', () => {
    for (const def of [deviceAreaResource, areaDispatchResource, areaDispatchOaResource]) {
      expect(byKey(def, 'codeName')?.hideInTable, def.code).toBe(false);
      expect(byKey(def, 'codeName')?.hideInSearch, def.code).toBe(true);
    }
  });

  it('the modify log\'s paths are not searched; their names are the columns', () => {
    expect(byKey(areaModifyLogResource, 'oldCode')).toBeUndefined();
    expect(byKey(areaModifyLogResource, 'newCode')).toBeUndefined();
    expect(byKey(areaModifyLogResource, 'newName')?.hideInTable).toBe(false);
  });
});
