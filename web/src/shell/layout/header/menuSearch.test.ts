import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { menuEntries, searchMenu } from './menuSearch';

function node(code: string, zh: string, en: string, path: string, sort: number, children?: MenuRoute[], isOpen = 1): MenuRoute {
  return {
    id: code, parentId: '0', code, name: zh, i18n: { zh, en }, alias: 'menu', path, source: '', sort, category: 1, action: 0,
    isOpen, component: '', remark: '', children,
  };
}

const tree = [
  node('system', '系统管理', 'System', '/system', 99, [node('param', '参数管理', 'Parameters', '/system/param', 8), node('dict', '字典管理', 'Dictionaries', '/system/dict', 2)]),
  node('desk', '工作台', 'Workbench', '/desk', 1, [node('notice', '通知公告', 'Notices', '/desk/notice', 1)]),
  node('docs', '外部文档', 'External docs', 'https://example.com/docs', 120, undefined, 2),
];
const home = { path: '/wel/index', label: 'Home', names: ['首页', 'Home'] };

describe('menu search', () => {
  it('lists home and every page of the menu in sidebar order, with the parents as trail', () => {
    const entries = menuEntries(tree, 'en', home);
    expect(entries.map((e) => e.path)).toEqual(['/wel/index', '/desk/notice', '/system/dict', '/system/param', 'https://example.com/docs']);
    expect(entries[1]).toMatchObject({ label: 'Notices', trail: ['Workbench'], newWindow: false });
    expect(entries.at(-1)?.newWindow).toBe(true);
  });

  it('matches names in both languages and paths, case-insensitively', () => {
    const entries = menuEntries(tree, 'zh', home);
    expect(searchMenu(entries, 'param').map((e) => e.path)).toEqual(['/system/param']);
    expect(searchMenu(entries, '参数').map((e) => e.label)).toEqual(['参数管理']);
    expect(searchMenu(entries, 'NOTICES').map((e) => e.path)).toEqual(['/desk/notice']);
    expect(searchMenu(entries, '/system/').map((e) => e.path)).toEqual(['/system/dict', '/system/param']);
    expect(searchMenu(entries, 'nothing-like-this')).toEqual([]);
  });

  it('ranks a name starting with the query before one containing it, then path and parent matches', () => {
    const entries = menuEntries(tree, 'en', home);
    expect(searchMenu(entries, 'di').map((e) => e.path)).toEqual(['/system/dict']);
    expect(searchMenu(entries, 'system').map((e) => e.path)).toEqual(['/system/dict', '/system/param']);
    // "Notices" starts with "no"; "External docs" and "Workbench" do not contain it
    expect(searchMenu(entries, 'no').map((e) => e.path)).toEqual(['/desk/notice']);
    // "Parameters" contains "ram" (score 1); nothing starts with it
    expect(searchMenu(entries, 'ram').map((e) => e.path)).toEqual(['/system/param']);
    // "Dictionaries" starts with "d", "External docs" contains it, the others only by their paths
    expect(searchMenu(entries, 'd').map((e) => e.path)).toEqual(['/system/dict', 'https://example.com/docs', '/wel/index', '/desk/notice']);
  });

  it('requires every word to match, and lists everything for an empty query', () => {
    const entries = menuEntries(tree, 'en', home);
    expect(searchMenu(entries, 'system par').map((e) => e.path)).toEqual(['/system/param']);
    expect(searchMenu(entries, '   ')).toHaveLength(entries.length);
  });
});
