import { HOME_PATH } from '../paths';

/**
 * How many tabs stay open (and their pages mounted) at most: opening one more closes the least recently used
 * tab, never the home tab nor one with unsaved changes (docs/keep-alive.md).
 */
export const MAX_OPEN_TABS = 20;

/** The limit, and which tabs hold unsaved changes (those are never closed or freed to make room). */
export interface TabLimits {
  max: number;
  unsaved: (key: string) => boolean;
}

const NO_LIMITS: TabLimits = { max: MAX_OPEN_TABS, unsaved: () => false };

/** The home tab's key. */
export const HOME_TAB = HOME_PATH;

/** A mounted page. `used` orders pages for eviction; `revision` changes when the page is refreshed (remounted). */
export interface KeptPage {
  key: string;
  used: number;
  revision: number;
}

/**
 * The open tabs and the pages kept alive behind them. A tab's key is its path with its query, so
 * /desk/notice and /desk/notice?category=2 are two tabs with two page states.
 */
export interface TabList {
  /** tab keys in bar order */
  tabs: string[];
  /**
   * mounted pages in the order they were first mounted: rendering them in this order means React
   * never moves a kept page's DOM (moving an iframe would reload it)
   */
  kept: KeptPage[];
  /** logical clock for `KeptPage.used` */
  clock: number;
  /**
   * when each tab was last shown (the clock), kept with the tabs across a reload, when their pages are not
   * mounted yet: the limit closes the tab used longest ago, not the leftmost one restored
   */
  lastUsed?: Record<string, number>;
}

export interface TabRules {
  /** the home tab cannot be closed (Saber's default) */
  homeFixed: boolean;
}

/** The result of a closing action: the new list and where to go when the page shown was closed. */
export interface Closing {
  list: TabList;
  goTo: string | null;
}

export function initialTabList(): TabList {
  return { tabs: [HOME_TAB], kept: [], clock: 0 };
}

/** The tab key of a location: the full path with its query (the hash is not part of a page's identity). */
export function tabKeyOf(location: { pathname: string; search: string }): string {
  return location.pathname + location.search;
}

/** The path part of a tab key. */
export function pathOf(key: string): string {
  const q = key.indexOf('?');
  return q < 0 ? key : key.slice(0, q);
}

/** A tab can be closed unless it is the last one or the fixed home tab. */
export function canClose(tabs: readonly string[], key: string, rules: TabRules): boolean {
  return tabs.length > 1 && tabs.includes(key) && !(rules.homeFixed && key === HOME_TAB);
}

/** Frees the kept pages whose tab is gone, except the page on screen (it is freed once you leave it). */
function prune(kept: KeptPage[], tabs: readonly string[], current: string | null): KeptPage[] {
  return kept.filter((p) => p.key === current || tabs.includes(p.key));
}

/** The least recently used of these keys (a tab never shown counts as used longest ago). */
function leastRecentlyUsed(keys: readonly string[], kept: readonly KeptPage[], lastUsed: Readonly<Record<string, number>>): string | undefined {
  const used = (k: string) => Math.max(kept.find((p) => p.key === k)?.used ?? 0, lastUsed[k] ?? 0);
  return keys.reduce<string | undefined>((a, b) => (a === undefined || used(b) < used(a) ? b : a), undefined);
}

/** Closes the least recently used tabs beyond `max`, sparing the page shown, the home tab and unsaved ones. */
function closeBeyond(tabs: string[], kept: readonly KeptPage[], lastUsed: Readonly<Record<string, number>>, shown: string, limits: TabLimits): string[] {
  let out = tabs;
  while (out.length > Math.max(1, limits.max)) {
    const lru = leastRecentlyUsed(out.filter((k) => k !== shown && k !== HOME_TAB && !limits.unsaved(k)), kept, lastUsed);
    if (lru === undefined) break;
    out = out.filter((k) => k !== lru);
  }
  return out;
}

/**
 * Arriving on a page. A page with a label (`asTab`) gets a tab (home always first) and is kept alive,
 * touching its place in the LRU order; beyond `max` tabs the least recently used one is closed (and its page
 * freed), unless it holds unsaved changes. A page without a label is shown without a tab and is not kept.
 * Pages whose tab was closed while they were on screen are freed here.
 */
export function visit(list: TabList, key: string, asTab: boolean, limits: TabLimits = NO_LIMITS): TabList {
  let { tabs } = list;
  if (asTab && !tabs.includes(key)) tabs = key === HOME_TAB ? [key, ...tabs] : [...tabs, key];
  if (!asTab) {
    const kept = prune(list.kept, tabs, null);
    return kept.length === list.kept.length && tabs === list.tabs ? list : { ...list, tabs, kept };
  }
  const clock = list.clock + 1;
  let kept = prune(list.kept, tabs, key);
  kept = kept.some((p) => p.key === key)
    ? kept.map((p) => (p.key === key ? { ...p, used: clock } : p))
    : [...kept, { key, used: clock, revision: 0 }];
  const lastUsed = Object.fromEntries(Object.entries({ ...list.lastUsed, [key]: clock }).filter(([k]) => tabs.includes(k)));
  tabs = closeBeyond(tabs, kept, lastUsed, key, limits);
  kept = prune(kept, tabs, key);
  return { tabs, kept, clock, lastUsed };
}

/** Closes one tab; closing the tab on screen goes to its right neighbour, else its left one. */
export function closeTab(list: TabList, key: string, current: string, rules: TabRules): Closing {
  if (!canClose(list.tabs, key, rules)) return { list, goTo: null };
  const at = list.tabs.indexOf(key);
  const tabs = list.tabs.filter((k) => k !== key);
  const goTo = key === current ? (tabs[at] ?? tabs[at - 1] ?? HOME_TAB) : null;
  return { list: { ...list, tabs, kept: prune(list.kept, tabs, current) }, goTo };
}

/** Keeps this tab (and the home tab when it is fixed), closes the others, and shows this one. */
export function closeOthers(list: TabList, key: string, current: string, rules: TabRules): Closing {
  if (!list.tabs.includes(key)) return { list, goTo: null };
  const tabs = list.tabs.filter((k) => k === key || (rules.homeFixed && k === HOME_TAB));
  return { list: { ...list, tabs, kept: prune(list.kept, tabs, current) }, goTo: key === current ? null : key };
}

/** Closes every tab and returns to the home tab (spec 2). */
export function closeAll(list: TabList, current: string): Closing {
  const tabs = [HOME_TAB];
  return { list: { ...list, tabs, kept: prune(list.kept, tabs, current) }, goTo: current === HOME_TAB ? null : HOME_TAB };
}

/** Remounts one kept page (a page not mounted needs nothing: it mounts fresh when shown). */
export function refreshPage(list: TabList, key: string): TabList {
  if (!list.kept.some((p) => p.key === key)) return list;
  return { ...list, kept: list.kept.map((p) => (p.key === key ? { ...p, revision: p.revision + 1 } : p)) };
}

/** Frees every kept page except the one on screen; the tabs stay (their pages mount fresh when shown). */
export function dropKeptExcept(list: TabList, current: string): TabList {
  return { ...list, kept: list.kept.filter((p) => p.key === current) };
}

/** Closes the tabs that `keep` rejects (e.g. pages no longer in the user's menu); home always stays. */
export function retainTabs(list: TabList, keep: (key: string) => boolean, current: string): TabList {
  const tabs = list.tabs.filter((k) => k === HOME_TAB || keep(k));
  if (tabs.length === list.tabs.length) return list;
  const safe = tabs.length > 0 ? tabs : [HOME_TAB];
  return { ...list, tabs: safe, kept: prune(list.kept, safe, current) };
}

/** With a fixed home, the home tab is always there and first. */
export function withHomeRule(list: TabList, rules: TabRules): TabList {
  if (!rules.homeFixed || list.tabs[0] === HOME_TAB) return list;
  return { ...list, tabs: [HOME_TAB, ...list.tabs.filter((k) => k !== HOME_TAB)] };
}
