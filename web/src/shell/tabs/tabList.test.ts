import { describe, expect, it } from 'vitest';
import {
  canClose,
  closeAll,
  closeOthers,
  closeTab,
  dropKeptExcept,
  HOME_TAB,
  initialTabList,
  pathOf,
  refreshPage,
  retainTabs,
  tabKeyOf,
  visit,
  withHomeRule,
  type TabList,
} from './tabList';

const FIXED = { homeFixed: true };
const FREE = { homeFixed: false };

function visitAll(keys: string[], max = 20, from: TabList = initialTabList(), unsaved: (key: string) => boolean = () => false): TabList {
  return keys.reduce((list, key) => visit(list, key, true, { max, unsaved }), from);
}

const keptKeys = (list: TabList) => list.kept.map((p) => p.key);

describe('tab keys', () => {
  it('are the path with its query', () => {
    expect(tabKeyOf({ pathname: '/desk/notice', search: '?category=2' })).toBe('/desk/notice?category=2');
    expect(pathOf('/desk/notice?category=2')).toBe('/desk/notice');
    expect(pathOf('/desk/notice')).toBe('/desk/notice');
  });
});

describe('visiting pages', () => {
  it('starts with the home tab and adds each new page once, at the end', () => {
    const list = visitAll([HOME_TAB, '/a', '/b', '/a']);
    expect(list.tabs).toEqual([HOME_TAB, '/a', '/b']);
    expect(keptKeys(list)).toEqual([HOME_TAB, '/a', '/b']);
  });

  it('treats the same path with another query as another tab', () => {
    expect(visitAll(['/a', '/a?x=1']).tabs).toEqual([HOME_TAB, '/a', '/a?x=1']);
  });

  it('puts the home tab first when it comes back', () => {
    const list = visit({ tabs: ['/a', '/b'], kept: [], clock: 0 }, HOME_TAB, true);
    expect(list.tabs).toEqual([HOME_TAB, '/a', '/b']);
  });

  it('neither opens a tab nor keeps a page without a label', () => {
    const before = visitAll(['/a']);
    const after = visit(before, '/unknown', false);
    expect(after.tabs).toEqual(before.tabs);
    expect(keptKeys(after)).toEqual(['/a']);
  });

  it('keeps pages in the order they were first mounted, whatever the order of use', () => {
    const list = visitAll(['/a', '/b', '/c', '/a', HOME_TAB]);
    expect(keptKeys(list)).toEqual(['/a', '/b', '/c', HOME_TAB]);
  });
});

describe('beyond the limit the least recently used tab is closed', () => {
  it('closes the tab used longest ago, not the oldest opened, and frees its page', () => {
    // /a is used again after /b, so /b is the least recently used when /d arrives
    const list = visitAll(['/a', '/b', '/c', '/a', '/d'], 4);
    expect(list.tabs).toEqual([HOME_TAB, '/a', '/c', '/d']);
    expect(keptKeys(list)).toEqual(['/a', '/c', '/d']);
  });

  it('never closes the page being shown nor the home tab', () => {
    expect(visitAll(['/a', '/b'], 1).tabs).toEqual([HOME_TAB, '/b']);
    // home was never shown (a tab restored after a reload counts as used longest ago), yet stays
    expect(visitAll(['/a', '/b', '/c'], 3).tabs).toEqual([HOME_TAB, '/b', '/c']);
  });

  it('skips a tab with unsaved changes, even when that leaves more tabs open than the limit', () => {
    const dirty = new Set(['/a']);
    const list = visitAll(['/a', '/b', '/c'], 3, initialTabList(), (k) => dirty.has(k));
    expect(list.tabs).toEqual([HOME_TAB, '/a', '/c']);
    dirty.add('/c');
    const crowded = visitAll(['/d'], 3, list, (k) => dirty.has(k));
    expect(crowded.tabs).toEqual([HOME_TAB, '/a', '/c', '/d']);
    expect(keptKeys(crowded)).toEqual(['/a', '/c', '/d']);
  });

  it('after a reload (no page mounted yet) still closes the tab used longest ago, not the leftmost', () => {
    const before = visitAll(['/a', '/b', '/c', '/a'], 4);
    // a reload keeps the tabs, the clock and when each was last shown, but mounts only the page shown
    const reloaded = { tabs: before.tabs, kept: [], clock: before.clock, lastUsed: before.lastUsed };
    expect(visitAll(['/d'], 4, reloaded).tabs).toEqual([HOME_TAB, '/a', '/c', '/d']);
  });

  it('opens a closed page again as a new tab at the end', () => {
    const list = visitAll(['/a', '/b', '/c', '/a'], 3);
    expect(list.tabs).toEqual([HOME_TAB, '/c', '/a']);
  });

  it('keeps at most 20 tabs by default', () => {
    const keys = Array.from({ length: 57 }, (_, i) => `/p${i}`);
    const list = keys.reduce((l, key) => visit(l, key, true), initialTabList());
    expect(list.tabs).toEqual([HOME_TAB, ...keys.slice(-19)]);
    expect(list.kept).toHaveLength(19);
  });
});

describe('closing', () => {
  const open = () => visitAll([HOME_TAB, '/a', '/b', '/c']);

  it('closes a tab in the background and frees its page', () => {
    const { list, goTo } = closeTab(open(), '/a', '/c', FIXED);
    expect(list.tabs).toEqual([HOME_TAB, '/b', '/c']);
    expect(keptKeys(list)).toEqual([HOME_TAB, '/b', '/c']);
    expect(goTo).toBeNull();
  });

  it('closing the tab on screen goes to its right neighbour, else its left one', () => {
    expect(closeTab(open(), '/b', '/b', FIXED).goTo).toBe('/c');
    expect(closeTab(open(), '/c', '/c', FIXED).goTo).toBe('/b');
  });

  it('frees the page on screen only once you have left it', () => {
    const { list, goTo } = closeTab(open(), '/b', '/b', FIXED);
    expect(keptKeys(list)).toContain('/b');
    const after = visit(list, goTo!, true);
    expect(keptKeys(after)).toEqual([HOME_TAB, '/a', '/c']);
  });

  it('a fixed home tab cannot be closed; a free one can', () => {
    expect(canClose(open().tabs, HOME_TAB, FIXED)).toBe(false);
    expect(closeTab(open(), HOME_TAB, '/a', FIXED).list.tabs).toEqual([HOME_TAB, '/a', '/b', '/c']);
    expect(closeTab(open(), HOME_TAB, '/a', FREE).list.tabs).toEqual(['/a', '/b', '/c']);
  });

  it('the last tab cannot be closed', () => {
    const only = closeTab(visitAll(['/a']), HOME_TAB, '/a', FREE).list;
    expect(only.tabs).toEqual(['/a']);
    expect(canClose(only.tabs, '/a', FREE)).toBe(false);
    expect(closeTab(only, '/a', '/a', FREE)).toEqual({ list: only, goTo: null });
    expect(canClose(initialTabList().tabs, HOME_TAB, FREE)).toBe(false);
  });

  it('close others keeps the tab and a fixed home, and shows the tab', () => {
    const { list, goTo } = closeOthers(open(), '/b', '/c', FIXED);
    expect(list.tabs).toEqual([HOME_TAB, '/b']);
    expect(goTo).toBe('/b');
    // /c is on screen until the navigation to /b lands
    expect(keptKeys(list)).toEqual([HOME_TAB, '/b', '/c']);
    expect(keptKeys(visit(list, '/b', true))).toEqual([HOME_TAB, '/b']);
    expect(closeOthers(open(), '/b', '/b', FREE)).toMatchObject({ list: { tabs: ['/b'] }, goTo: null });
  });

  it('close all returns to the home tab, whether home is fixed or not', () => {
    const { list, goTo } = closeAll(open(), '/b');
    expect(list.tabs).toEqual([HOME_TAB]);
    expect(goTo).toBe(HOME_TAB);
    expect(keptKeys(visit(list, HOME_TAB, true))).toEqual([HOME_TAB]);
    expect(closeAll(open(), HOME_TAB).goTo).toBeNull();
  });
});

describe('refresh and cache', () => {
  it('refresh changes the revision of that page only', () => {
    const list = refreshPage(visitAll(['/a', '/b']), '/a');
    expect(list.kept.map((p) => [p.key, p.revision])).toEqual([['/a', 1], ['/b', 0]]);
    expect(refreshPage(list, '/not-kept')).toBe(list);
  });

  it('clearing the cache frees every page but the one on screen and keeps the tabs', () => {
    const list = dropKeptExcept(visitAll([HOME_TAB, '/a', '/b']), '/a');
    expect(keptKeys(list)).toEqual(['/a']);
    expect(list.tabs).toEqual([HOME_TAB, '/a', '/b']);
  });

  it('retains only the tabs still known, always with home', () => {
    const list = retainTabs(visitAll(['/a', '/b']), (k) => k === '/b', '/b');
    expect(list.tabs).toEqual([HOME_TAB, '/b']);
    expect(keptKeys(list)).toEqual(['/b']);
  });

  it('a fixed home comes back first', () => {
    const free = closeTab(visitAll(['/a']), HOME_TAB, '/a', FREE).list;
    expect(withHomeRule(free, FIXED).tabs).toEqual([HOME_TAB, '/a']);
    expect(withHomeRule(free, FREE)).toBe(free);
  });
});
