import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { menuLabel, menuTrail, sidebarTree } from './menuTree';

function node(code: string, path: string, sort: number, children?: MenuRoute[]): MenuRoute {
  return {
    id: code, parentId: '0', code, name: `${code}-zh`, i18n: { zh: `${code}-zh`, en: `${code}-en` }, alias: 'menu',
    path, source: '', sort, category: 1, action: 0, isOpen: 1, component: '', remark: '', children,
  };
}

const tree = [
  node('system', '/system', 99, [node('param', '/system/param', 8)]),
  node('desk', '/desk', 1, [node('notice', '/desk/notice', 1)]),
];

describe('menuTree', () => {
  it('finds the chain of nodes leading to a path', () => {
    expect(menuTrail(tree, '/system/param').map((n) => n.code)).toEqual(['system', 'param']);
    expect(menuTrail(tree, '/nowhere')).toEqual([]);
  });

  it('names nodes in the UI language', () => {
    const param = menuTrail(tree, '/system/param').at(-1)!;
    expect(menuLabel(param, 'en')).toBe('param-en');
    expect(menuLabel({ ...param, i18n: { zh: '', en: '' } }, 'en')).toBe('param-zh');
  });

  it('sorts the sidebar and hides /production unless it comes first', () => {
    expect(sidebarTree(tree).map((n) => n.code)).toEqual(['desk', 'system']);
    expect(sidebarTree([...tree, node('production', '/production', 50)]).map((n) => n.code)).toEqual(['desk', 'system']);
    expect(sidebarTree([...tree, node('production', '/production', 0)]).map((n) => n.code)).toEqual(['production', 'desk', 'system']);
  });
});
