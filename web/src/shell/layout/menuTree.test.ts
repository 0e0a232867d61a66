import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { menuKeyOf, menuLabel, menuTarget, menuTrail, sidebarTree } from './menuTree';

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

  it('keeps /production when it is the only or first entry, whatever the sort order says', () => {
    expect(sidebarTree([node('production', '/production', 5)]).map((n) => n.code)).toEqual(['production']);
    expect(sidebarTree([]).map((n) => n.code)).toEqual([]);
    // only the root entry is concerned: a child with that path stays
    const nested = [node('desk', '/desk', 1, [node('production', '/production', 1)])];
    expect(sidebarTree(nested)[0]!.children!.map((n) => n.code)).toEqual(['production']);
  });

  it('sends http(s) entries into the embedded page, option 2 to a new window, others to their route', () => {
    expect(menuTarget(node('docs', 'https://docs.example.com/a', 1))).toEqual({
      kind: 'route', to: '/myiframe/docs?src=https%3A%2F%2Fdocs.example.com%2Fa',
    });
    expect(menuTarget({ ...node('ext', 'https://example.com', 1), isOpen: 2 })).toEqual({ kind: 'window', url: 'https://example.com' });
    expect(menuTarget(node('param', '/system/param', 1))).toEqual({ kind: 'route', to: '/system/param' });
  });

  it('marks the menu entry an embedded page comes from, and leaves other paths as they are', () => {
    const withUrl = [node('ext', '/ext', 5, [node('grafana', 'https://grafana.example.com/d/1', 1)]), ...tree];
    expect(menuKeyOf(withUrl, '/myiframe/grafana')).toBe('https://grafana.example.com/d/1');
    expect(menuTrail(withUrl, menuKeyOf(withUrl, '/myiframe/grafana')).map((n) => n.code)).toEqual(['ext', 'grafana']);
    expect(menuKeyOf(withUrl, '/myiframe/unknown')).toBe('/myiframe/unknown');
    expect(menuKeyOf(withUrl, '/myiframe/%E0%A4%A')).toBe('/myiframe/%E0%A4%A');
    expect(menuKeyOf(withUrl, '/system/param')).toBe('/system/param');
  });
});
