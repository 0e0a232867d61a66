import type { GrantNode } from '@console/contract/areas/system/index';
import { describe, expect, it } from 'vitest';
import { conductedKeys, countByCategory, sortedKeys } from './menuTreeKeys';

const node = (id: string, children?: GrantNode[], category = 1): GrantNode => ({
  id, parentId: '0', title: id, key: id, value: id, category, ...(children ? { children } : {}),
});

// desk › notice › (notice_add, notice_edit); desk › dash; system › dept
const tree: GrantNode[] = [
  node('desk', [node('notice', [node('notice_add', undefined, 2), node('notice_edit', undefined, 2)]), node('dash')]),
  node('system', [node('dept')]),
];

describe('conductedKeys', () => {
  it('keeps leaves and parents whose whole subtree is chosen, in tree order', () => {
    expect(conductedKeys(tree, ['dept', 'system', 'notice_edit', 'notice_add', 'notice'])).toEqual(['notice', 'notice_add', 'notice_edit', 'system', 'dept']);
  });

  it('drops a parent named without all of its children (it would check them all)', () => {
    expect(conductedKeys(tree, ['desk', 'notice', 'notice_add', 'system', 'dept'])).toEqual(['notice_add', 'system', 'dept']);
    expect(conductedKeys(tree, ['desk'])).toEqual([]);
  });

  it('drops ids the tree does not hold', () => {
    expect(conductedKeys(tree, ['dash', '999'])).toEqual(['dash']);
  });
});

describe('sortedKeys and countByCategory', () => {
  it('orders keys as the tree does, once each, without unknown ones', () => {
    expect(sortedKeys(tree, ['dept', 'desk', 'x', 'dept', 'notice_add'])).toEqual(['desk', 'notice_add', 'dept']);
  });

  it('counts menus and buttons', () => {
    expect(countByCategory(tree, ['desk', 'notice', 'notice_add', 'notice_edit', 'zzz'])).toEqual({ menus: 2, buttons: 2 });
  });
});
