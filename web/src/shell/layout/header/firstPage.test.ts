import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { firstPagePath } from './firstPage';

function node(code: string, path: string, sort: number, children?: MenuRoute[]): MenuRoute {
  return {
    id: code, parentId: '0', code, name: code, i18n: { zh: code, en: code }, alias: 'menu', path, source: '', sort, category: 1,
    action: 0, isOpen: 1, component: '', remark: '', children,
  };
}

describe('firstPagePath', () => {
  it('finds the first page in sidebar order, skipping folders without pages', () => {
    const tree = [
      node('system', '/system', 99, [node('param', '/system/param', 8), node('dict', '/system/dict', 2)]),
      node('empty', '/empty', 0, [node('hole', '', 1)]),
      node('desk', '/desk', 1, [node('notice', '/desk/notice', 1)]),
    ];
    expect(firstPagePath(tree)).toBe('/desk/notice');
    expect(firstPagePath([tree[0] as MenuRoute])).toBe('/system/dict');
  });

  it('gives null for a tree without pages', () => {
    expect(firstPagePath([])).toBeNull();
    expect(firstPagePath([node('folder', '', 1, [node('hole', '', 1)])])).toBeNull();
  });
});
