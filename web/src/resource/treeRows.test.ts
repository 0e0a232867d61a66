import { describe, expect, it } from 'vitest';
import { childrenPending, insertChildren, isSearching, parentIds, reopen, treeIds, withoutPaging, withPlaceholders, type TreeRow } from './treeRows';

type Row = TreeRow & { name?: string };

describe('tree rows', () => {
  it('tells a search from browsing', () => {
    expect(isSearching({ current: 1, size: 10, descs: 'sort' })).toBe(false);
    expect(isSearching({ current: 1, size: 10, name: 'x' })).toBe(true);
    expect(withoutPaging({ current: 1, size: 10, name: 'x' })).toEqual({ name: 'x' });
  });

  it('gives rows with children an empty list to open, and none to leaves', () => {
    const rows = withPlaceholders<Row>([{ id: '1', hasChildren: true }, { id: '2', hasChildren: false, children: [] }]);
    expect(rows).toEqual([{ id: '1', hasChildren: true, children: [] }, { id: '2', hasChildren: false }]);
    expect(childrenPending(rows[0]!)).toBe(true);
    expect(childrenPending(rows[1]!)).toBe(false);
  });

  it('puts loaded children under their parent at any depth', () => {
    const rows: Row[] = [{ id: '1', hasChildren: true, children: [{ id: '2', hasChildren: true, children: [] }] }, { id: '3' }];
    const next = insertChildren<Row>(rows, '2', [{ id: '4', name: 'leaf' }]);
    expect(next[0]?.children?.[0]?.children).toEqual([{ id: '4', name: 'leaf' }]);
    expect(next[1]).toBe(rows[1]);
    expect(rows[0]?.children?.[0]?.children).toEqual([]);
    expect([...treeIds(next)]).toEqual(['1', '2', '4', '3']);
  });

  it('opens the first level of a nested list', () => {
    expect(parentIds([{ id: '1', children: [{ id: '2' }] }, { id: '3' }, { id: '5', children: [] }])).toEqual(['1']);
  });

  it('reloads the children of the rows that were open, level by level', async () => {
    const data: Record<string, Row[]> = { '1': [{ id: '2', hasChildren: true }], '2': [{ id: '3', hasChildren: false }] };
    const asked: string[] = [];
    const load = async (id: string) => {
      asked.push(id);
      if (id === '9') throw new Error('gone');
      return data[id] ?? [];
    };
    const rows = withPlaceholders<Row>([{ id: '1', hasChildren: true }, { id: '9', hasChildren: true }, { id: '7', hasChildren: true }]);
    const open = await reopen(rows, new Set(['1', '2', '9']), load);
    expect(asked.sort()).toEqual(['1', '2', '9']);
    expect(open[0]).toEqual({ id: '1', hasChildren: true, children: [{ id: '2', hasChildren: true, children: [{ id: '3', hasChildren: false }] }] });
    expect(open[1]).toEqual({ id: '9', hasChildren: true, children: [] });
    expect(open[2]).toEqual({ id: '7', hasChildren: true, children: [] });
  });
});
