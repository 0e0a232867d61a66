import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { countVisit, menuPageOf, topShortcuts, type VisitCounts } from './visits';

function node(code: string, path: string, children?: MenuRoute[]): MenuRoute {
  return {
    id: code, parentId: '0', code, name: code, i18n: { zh: code, en: code }, alias: 'menu',
    path, source: '', sort: 1, category: 1, action: 0, isOpen: 1, component: '', remark: '', children,
  };
}

const menu = [
  node('desk', '/desk', [node('notice', '/desk/notice')]),
  node('system', '/system', [node('param', '/system/param'), node('dict', '/system/dict')]),
];

describe('visits', () => {
  it('only menu pages (leaves with a path) count as pages', () => {
    expect(menuPageOf(menu, '/desk/notice')?.code).toBe('notice');
    expect(menuPageOf(menu, '/desk')).toBeUndefined();
    expect(menuPageOf(menu, '/nowhere')).toBeUndefined();
  });

  it('counts visits per path', () => {
    let counts: VisitCounts = {};
    counts = countVisit(counts, '/desk/notice');
    counts = countVisit(counts, '/desk/notice');
    counts = countVisit(counts, '/system/param');
    expect(counts).toEqual({ '/desk/notice': 2, '/system/param': 1 });
  });

  it('keeps a bounded number of paths, never dropping the one just visited', () => {
    let counts: VisitCounts = {};
    for (let i = 0; i < 50; i++) counts = { ...counts, [`/p${i}`]: 5 };
    counts = countVisit(counts, '/new');
    expect(Object.keys(counts)).toHaveLength(50);
    expect(counts['/new']).toBe(1);
  });

  it('offers the most visited pages still in the menu, most visited first, at most the limit', () => {
    const counts = { '/system/param': 3, '/desk/notice': 5, '/gone': 9, '/system/dict': 3, '/desk': 7 };
    expect(topShortcuts(counts, menu).map((n) => n.code)).toEqual(['notice', 'dict', 'param']);
    expect(topShortcuts(counts, menu, 1).map((n) => n.code)).toEqual(['notice']);
    expect(topShortcuts({}, menu)).toEqual([]);
  });
});
