import { describe, expect, it } from 'vitest';
import { allIds, filterTree, type TreeItem } from '../../resource/treeItems';
import { groupScopes, indexTree, knownIds, toggleGrant } from './grantLogic';

const tree: TreeItem[] = [
  {
    id: 'desk', title: '工作台', children: [
      { id: 'notice', title: '通知公告', children: [{ id: 'notice_add', title: '新增' }, { id: 'notice_view', title: '查看' }] },
    ],
  },
  { id: 'system', title: '系统管理', children: [{ id: 'user', title: '用户管理' }, { id: 'Dept', title: 'Departments' }] },
];
const index = indexTree(tree);
const sorted = (s: Set<string>) => [...s].sort();

describe('toggleGrant', () => {
  it('ticking a node grants it, its subtree and its ancestors', () => {
    expect(sorted(toggleGrant(index, new Set(), 'notice', true))).toEqual(['desk', 'notice', 'notice_add', 'notice_view']);
    expect(sorted(toggleGrant(index, new Set(['system']), 'user', true))).toEqual(['system', 'user']);
  });

  it('unticking takes back the node and its subtree, leaving the ancestors', () => {
    const all = new Set(allIds(tree));
    expect(sorted(toggleGrant(index, all, 'notice', false))).toEqual(['Dept', 'desk', 'system', 'user']);
    expect(sorted(toggleGrant(index, new Set(['desk', 'notice', 'notice_view']), 'notice_view', false))).toEqual(['desk', 'notice']);
  });

  it('keeps a menu granted without its buttons as it is', () => {
    const granted = new Set(['desk', 'notice']);
    expect(sorted(toggleGrant(index, granted, 'user', true))).toEqual(['desk', 'notice', 'system', 'user']);
  });

  it('does not change the set it is given', () => {
    const granted = new Set(['desk']);
    toggleGrant(index, granted, 'notice', true);
    expect(sorted(granted)).toEqual(['desk']);
  });
});

describe('knownIds and allIds', () => {
  it('keeps only the ids the tree holds', () => {
    expect(sorted(knownIds(index, ['desk', 'gone', 'user']))).toEqual(['desk', 'user']);
  });
  it('lists every id depth first', () => {
    expect(allIds(tree)).toEqual(['desk', 'notice', 'notice_add', 'notice_view', 'system', 'user', 'Dept']);
  });
});

describe('filterTree', () => {
  it('keeps the matches with their ancestors and their subtrees', () => {
    expect(filterTree(tree, '通知')).toEqual([{ ...tree[0], children: [tree[0]!.children![0]] }]);
    expect(filterTree(tree, 'dep')).toEqual([{ ...tree[1], children: [{ id: 'Dept', title: 'Departments' }] }]);
    expect(filterTree(tree, '系统')).toEqual([tree[1]]);
  });
  it('answers the whole tree for a blank query and nothing when nothing matches', () => {
    expect(filterTree(tree, '  ')).toEqual(tree);
    expect(filterTree(tree, 'zzz')).toEqual([]);
  });
});

describe('groupScopes', () => {
  it('groups scopes by menu in the order the menus first appear', () => {
    const groups = groupScopes([
      { id: '1', menuId: 'm1', menuIdName: '通知公告', scopeName: 'a' },
      { id: '2', menuId: 'm2', menuIdName: '用户管理', scopeName: 'b' },
      { id: '3', menuId: 'm1', menuIdName: '通知公告', scopeName: 'c' },
      { id: '4', menuId: null, scopeName: 'd' },
    ], '其他');
    expect(groups.map((g) => [g.menuName, g.scopes.map((s) => s.id)])).toEqual([['通知公告', ['1', '3']], ['用户管理', ['2']], ['其他', ['4']]]);
  });
});
