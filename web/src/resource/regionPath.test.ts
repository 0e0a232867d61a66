import type { TreeNode } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { joinPath, lastCode, levelsOf, pathMatches, REGION_ROOT, regionOptions, splitPath } from './regionPath';

const node = (id: string, parentId: string, title: string, hasChildren?: boolean): TreeNode => ({ id, parentId, title, key: id, value: id, hasChildren });

describe('region paths', () => {
  it('reads and writes the wire\'s comma-joined path', () => {
    expect(splitPath('330000,330100, 330106')).toEqual(['330000', '330100', '330106']);
    expect(splitPath('')).toEqual([]);
    expect(splitPath(null)).toEqual([]);
    expect(splitPath(['330000', 330100])).toEqual(['330000', '330100']);
    expect(joinPath(['330000', '330100'])).toBe('330000,330100');
    expect(joinPath([])).toBeUndefined();
    expect(joinPath(undefined)).toBeUndefined();
    expect(lastCode('330000,330100')).toBe('330100');
    expect(lastCode('330000')).toBe('330000');
    expect(lastCode('')).toBeUndefined();
  });

  it('loads the levels along a path to show it by name: the provinces and the children of each code but the last', () => {
    expect(levelsOf([])).toEqual([REGION_ROOT]);
    expect(levelsOf(['330000', '330100', '330106'])).toEqual([REGION_ROOT, '330000', '330100']);
  });

  it('builds the options from the loaded levels: leaves where the server says so, children where loaded', () => {
    const levels = new Map<string, TreeNode[] | null>([
      [REGION_ROOT, [node('330000', '0', '浙江省', true), node('310000', '0', '上海市', true), node('990000', '0', '无下级', false)]],
      ['330000', [node('330100', '330000', '杭州市', true)]],
      ['310000', null],
    ]);
    expect(regionOptions(levels)).toEqual([
      { value: '330000', label: '浙江省', isLeaf: false, children: [{ value: '330100', label: '杭州市', isLeaf: false }] },
      // a level that could not be read: nothing under it (the cascader stops waiting)
      { value: '310000', label: '上海市', isLeaf: false, children: [] },
      { value: '990000', label: '无下级', isLeaf: true },
    ]);
    expect(regionOptions(new Map())).toEqual([]);
  });

  it('searches the names along a path', () => {
    const path = [{ label: '浙江省' }, { label: '杭州市' }];
    expect(pathMatches('杭州', path)).toBe(true);
    expect(pathMatches('浙江', path)).toBe(true);
    expect(pathMatches('上海', path)).toBe(false);
    expect(pathMatches(' ', path)).toBe(false);
  });
});
