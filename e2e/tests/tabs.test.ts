import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, toast, waitFor } from '../flows.js';

const b = useBrowser();

const HOME = '/wel/index';
const NOTICE = '/desk/notice';
const PARAM = '/system/param';

/** A tab of the bar, by its key (path and query). */
const tab = (key: string) => b.page.locator(`[data-testid="tab"][data-key="${key}"]`);
/** The page kept alive behind a tab (hidden while another tab is shown). */
const kept = (key: string) => b.page.locator(`[data-testid="kept-page"][data-key="${key}"]`);
/** The search input of a list page's search form. */
const searchField = (key: string, field: string) => kept(key).locator(`#search_${field}`);
/** An entry of the open tab menu (context menu or bar dropdown). */
const menuEntry = (action: string) => b.page.getByTestId(`tab-menu-${action}`).filter({ visible: true });

async function tabKeys(): Promise<string[]> {
  return b.page.getByTestId('tab').evaluateAll((els) => els.map((el) => el.getAttribute('data-key') ?? ''));
}

async function waitForTabs(keys: string[]): Promise<void> {
  await waitFor(b.page, `tabs ${keys.join(', ')}`, async () => JSON.stringify(await tabKeys()) === JSON.stringify(keys));
}

async function pathname(): Promise<string> {
  return new URL(b.page.url()).pathname;
}

/** Waits for the menus opened before to be gone (they fade out, then are hidden). */
async function noMenuOpen(): Promise<void> {
  await waitFor(b.page, 'no menu open', async () => (await b.page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').count()) === 0);
}

/** Chooses an entry of the menu being opened, once it has stopped sliding in (a click during the animation can miss). */
async function choose(action: string): Promise<void> {
  await menuEntry(action).waitFor();
  await waitFor(b.page, 'the menu to finish opening', async () =>
    (await b.page.locator('.ant-dropdown[class*="-appear"], .ant-dropdown[class*="-enter"]').count()) === 0);
  await menuEntry(action).click();
}

/** Opens a tab's context menu and chooses an entry. */
async function tabMenu(key: string, action: string): Promise<void> {
  await noMenuOpen();
  await tab(key).click({ button: 'right' });
  await choose(action);
}

/** Opens the dropdown at the end of the bar and chooses an entry. */
async function barMenu(action: string): Promise<void> {
  await noMenuOpen();
  await b.page.getByTestId('tabs-menu').click();
  await choose(action);
}

/** Marks a DOM node, to tell a kept node from a remounted one. */
async function mark(el: Locator, value: string): Promise<void> {
  await el.evaluate((node, v) => node.setAttribute('data-e2e-mark', v), value);
}

async function markOf(el: Locator): Promise<string | null> {
  return el.evaluate((node) => node.getAttribute('data-e2e-mark'));
}

/** Shows a list page through the sidebar (opening its submenu when closed) and waits for its table. */
async function openList(key: string, parent: string, code: string): Promise<void> {
  if (!(await b.page.getByTestId(`menu-${code}`).isVisible())) await openMenu(b.page, parent);
  await openMenu(b.page, code);
  await b.page.waitForURL(`**${key}`);
  await kept(key).getByTestId('resource-table').waitFor();
}

async function showTab(key: string): Promise<void> {
  await tab(key).click();
  await waitFor(b.page, `${key} on screen`, async () => (await pathname()) === key && (await kept(key).isVisible()));
}

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
});

describe('the tab bar', () => {
  it('opens a tab per visited page, labelled with its menu name after the home tab; the title follows the tab', async () => {
    await tab(HOME).waitFor();
    expect(await tab(HOME).innerText()).toBe('首页');
    await openList(NOTICE, 'desk', 'notice');
    await openList(PARAM, 'system', 'param');
    await waitForTabs([HOME, NOTICE, PARAM]);
    expect(await tab(NOTICE).innerText()).toBe('通知公告');
    expect(await tab(PARAM).innerText()).toBe('参数管理');
    expect(await tab(PARAM).getAttribute('data-active')).toBe('true');
    await waitFor(b.page, 'title 参数管理', async () => (await b.page.title()) === '参数管理');

    await showTab(NOTICE);
    await waitFor(b.page, 'title 通知公告', async () => (await b.page.title()) === '通知公告');
    expect(await kept(PARAM).isVisible()).toBe(false);
    // visiting an open page again does not add a tab
    await openList(NOTICE, 'desk', 'notice');
    await waitForTabs([HOME, NOTICE, PARAM]);
  });

  it('labels the tabs and the title in the UI language', async () => {
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'English labels', async () =>
      (await tab(NOTICE).innerText()) === 'Notices' && (await tab(PARAM).innerText()) === 'Parameters');
    expect(await tab(HOME).innerText()).toBe('Home');
    await waitFor(b.page, 'English title', async () => (await b.page.title()) === 'Notices');
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('lang-zh').click();
    await waitFor(b.page, 'Chinese labels', async () => (await tab(NOTICE).innerText()) === '通知公告');
  });

  it('keeps a page\'s search input and DOM while another tab is shown', async () => {
    await showTab(NOTICE);
    await searchField(NOTICE, 'title').fill('固件升级');
    await mark(kept(NOTICE).getByTestId('resource-page'), 'notice-1');
    await showTab(PARAM);
    await searchField(PARAM, 'paramName').fill('系统');
    await showTab(NOTICE);
    expect(await searchField(NOTICE, 'title').inputValue()).toBe('固件升级');
    expect(await markOf(kept(NOTICE).getByTestId('resource-page'))).toBe('notice-1');
    await showTab(PARAM);
    expect(await searchField(PARAM, 'paramName').inputValue()).toBe('系统');
  });

  it('keeps a list\'s table page while another tab is shown', async () => {
    // twelve parameters (and the seeded ones): at least two pages of ten
    await b.page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('saber-session') ?? '{}').state;
      for (let i = 1; i <= 12; i++) {
        const res = await fetch('/api/blade-system/param/submit', {
          method: 'POST',
          headers: {
            Authorization: `Basic ${btoa('saber:saber_secret')}`,
            'Blade-Auth': `bearer ${token.content}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ paramName: `标签页 ${i}`, paramKey: `tabs.e2e.${i}`, paramValue: String(i) }),
        });
        if ((await res.json()).code !== 200) throw new Error(`parameter ${i} was not added`);
      }
    });
    await showTab(PARAM);
    await kept(PARAM).getByTestId('resource-search-reset').click();
    const pager = kept(PARAM).locator('.ant-pagination');
    const rows = kept(PARAM).locator('tbody tr.ant-table-row');
    // text content, not inner text: the latter depends on layout (a row being re-rendered reads differently)
    const texts = async () => JSON.stringify(await rows.allTextContents());
    await waitFor(b.page, 'page 1', async () => (await rows.count()) === 10);
    const page1 = await texts();
    await pager.locator('.ant-pagination-item-2').click();
    // page 2 holds what the seeded parameters (account.initPassword, log.retentionDays…) and these twelve
    // leave past ten; the pager marks 2 before its rows arrive, so wait for the rows themselves
    await waitFor(b.page, 'page 2', async () =>
      (await pager.locator('.ant-pagination-item-active').innerText()) === '2' && (await rows.count()) > 0 && (await texts()) !== page1);
    const page2 = await texts();
    await showTab(NOTICE);
    await showTab(PARAM);
    expect(await pager.locator('.ant-pagination-item-active').innerText()).toBe('2');
    await waitFor(b.page, 'the same rows', async () => (await texts()) === page2);
  });

  it('restores each tab\'s scroll position', async () => {
    await b.page.setViewportSize({ width: 1440, height: 320 });
    try {
      await showTab(PARAM);
      const room = await b.page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(room).toBeGreaterThan(100);
      await b.page.evaluate(() => window.scrollTo(0, 100));
      await waitFor(b.page, 'scrolled', async () => (await b.page.evaluate(() => window.scrollY)) === 100);
      await showTab(NOTICE);
      await waitFor(b.page, 'notice at the top', async () => (await b.page.evaluate(() => window.scrollY)) === 0);
      await showTab(PARAM);
      await waitFor(b.page, 'param scrolled back', async () => (await b.page.evaluate(() => window.scrollY)) === 100);
    } finally {
      await b.page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('refresh remounts only that page', async () => {
    await mark(kept(PARAM).getByTestId('resource-page'), 'param-1');
    await tabMenu(PARAM, 'refresh');
    await waitFor(b.page, 'a fresh parameter page', async () =>
      (await kept(PARAM).getByTestId('resource-table').isVisible()) &&
      (await markOf(kept(PARAM).getByTestId('resource-page'))) === null);
    expect(await searchField(PARAM, 'paramName').inputValue()).toBe('');
    // the notice page kept its state
    expect(await searchField(NOTICE, 'title').inputValue()).toBe('固件升级');
    expect(await markOf(kept(NOTICE).getByTestId('resource-page'))).toBe('notice-1');
  });

  it('closing a tab frees its page; opening it again shows a fresh page', async () => {
    await showTab(NOTICE);
    await b.page.locator('.ant-tabs-tab', { has: tab(NOTICE) }).getByTestId('tab-close').click();
    await waitForTabs([HOME, PARAM]);
    // the page on screen was closed: its right neighbour is shown and the closed page is gone
    await b.page.waitForURL(`**${PARAM}`);
    await waitFor(b.page, 'the notice page freed', async () => (await kept(NOTICE).count()) === 0);
    await openList(NOTICE, 'desk', 'notice');
    expect(await searchField(NOTICE, 'title').inputValue()).toBe('');
    expect(await markOf(kept(NOTICE).getByTestId('resource-page'))).toBeNull();
    await waitForTabs([HOME, PARAM, NOTICE]);
  });

  it('closing a tab in the background from its context menu leaves the page on screen', async () => {
    await openList(`${PARAM}`, 'system', 'param');
    await b.page.goto(`${b.baseUrl}${NOTICE}?from=background`);
    await kept(`${NOTICE}?from=background`).getByTestId('resource-table').waitFor();
    await showTab(NOTICE);
    await tabMenu(`${NOTICE}?from=background`, 'close');
    await waitForTabs([HOME, PARAM, NOTICE]);
    expect(await pathname()).toBe(NOTICE);
    expect(new URL(b.page.url()).search).toBe('');
  });

  it('tabs survive a reload of the page', async () => {
    await b.page.reload();
    await kept(NOTICE).getByTestId('resource-table').waitFor();
    await waitForTabs([HOME, PARAM, NOTICE]);
    expect(await tab(NOTICE).getAttribute('data-active')).toBe('true');
    await showTab(PARAM);
    await kept(PARAM).getByTestId('resource-table').waitFor();
  });

  it('close others keeps that tab and the fixed home tab', async () => {
    await searchField(PARAM, 'paramName').fill('留下');
    await tabMenu(PARAM, 'closeOthers');
    await waitForTabs([HOME, PARAM]);
    await waitFor(b.page, 'the notice page freed', async () => (await kept(NOTICE).count()) === 0);
    expect(await searchField(PARAM, 'paramName').inputValue()).toBe('留下');
  });

  it('close all returns to the home tab, which then cannot be closed', async () => {
    await barMenu('closeAll');
    await b.page.waitForURL(`**${HOME}`);
    await waitForTabs([HOME]);
    await b.page.getByTestId('home-greeting').waitFor();
    await waitFor(b.page, 'the parameter page freed', async () => (await kept(PARAM).count()) === 0);
    expect(await b.page.getByTestId('tab-close').count()).toBe(0);
    await noMenuOpen();
    await tab(HOME).click({ button: 'right' });
    expect(await menuEntry('close').locator('xpath=ancestor::li[1]').getAttribute('aria-disabled')).toBe('true');
    await b.page.keyboard.press('Escape');
    await noMenuOpen();
  });

  it('a home tab that is not fixed can be closed, but never the last tab', async () => {
    await barMenu('homeFixed');
    // alone, the home tab still cannot be closed
    expect(await b.page.getByTestId('tab-close').count()).toBe(0);
    await openList(NOTICE, 'desk', 'notice');
    await waitForTabs([HOME, NOTICE]);
    await b.page.locator('.ant-tabs-tab', { has: tab(HOME) }).getByTestId('tab-close').click();
    await waitForTabs([NOTICE]);
    expect(await b.page.getByTestId('tab-close').count()).toBe(0);
    // fixing it again brings the home tab back, first
    await barMenu('homeFixed');
    await waitForTabs([HOME, NOTICE]);
    expect(await b.page.locator('.ant-tabs-tab', { has: tab(HOME) }).getByTestId('tab-close').count()).toBe(0);
  });

  it('clear cache asks 是否需要清除缓存?, clears the server cache and the hidden pages, and says 清除完毕', async () => {
    await openList(PARAM, 'system', 'param');
    await searchField(PARAM, 'paramName').fill('仍在');
    await showTab(NOTICE);
    await tabMenu(NOTICE, 'clearCache');
    await b.page.locator('.ant-modal-confirm', { hasText: '是否需要清除缓存?' }).waitFor();
    const cleared = b.page.waitForResponse((r) => r.url().includes('/api/blade-auth/oauth/clear-cache') && r.ok());
    await confirm(b.page);
    await cleared;
    await toast(b.page, '清除完毕');
    // the tabs stay; the hidden parameter page was freed, the page on screen was kept
    await waitForTabs([HOME, NOTICE, PARAM]);
    expect(await kept(PARAM).count()).toBe(0);
    expect(await kept(NOTICE).isVisible()).toBe(true);
    await showTab(PARAM);
    expect(await searchField(PARAM, 'paramName').inputValue()).toBe('');
  });

  it('cancelling clear cache keeps everything', async () => {
    await searchField(PARAM, 'paramName').fill('还在');
    await showTab(NOTICE);
    await tabMenu(NOTICE, 'clearCache');
    await b.page.locator('.ant-modal-confirm').waitFor();
    await b.page.getByTestId('confirm-cancel').click();
    await b.page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await showTab(PARAM);
    expect(await searchField(PARAM, 'paramName').inputValue()).toBe('还在');
  });

  it('search filters the open tabs and jumps to one', async () => {
    await barMenu('search');
    const input = b.page.getByTestId('tab-search-input');
    await input.fill('不存在的页面');
    await b.page.getByTestId('tab-search-empty').waitFor();
    await input.fill('通知');
    await waitFor(b.page, 'one match', async () => (await b.page.getByTestId('tab-search-item').count()) === 1);
    expect(await b.page.getByTestId('tab-search-item').getAttribute('data-key')).toBe(NOTICE);
    await input.press('Enter');
    await b.page.waitForURL(`**${NOTICE}`);
    await b.page.getByTestId('tab-search-input').waitFor({ state: 'detached' });
    // by path, and by a click
    await tabMenu(NOTICE, 'search');
    await b.page.getByTestId('tab-search-input').fill('system');
    await b.page.getByTestId('tab-search-item').click();
    await b.page.waitForURL(`**${PARAM}`);
  });

  it('a page opened with ?target=_blank opens in a new window instead of a tab', async () => {
    const before = await tabKeys();
    const opened = b.context.waitForEvent('page');
    await tabMenu(NOTICE, 'openWindow');
    const win = await opened;
    await win.waitForURL(`**${NOTICE}`);
    expect(new URL(win.url()).search).toBe('');
    // the new window has the session and its own tabs
    await win.locator(`[data-testid="kept-page"][data-key="${NOTICE}"]`).getByTestId('resource-table').waitFor();
    expect(await win.getByTestId('tab').evaluateAll((els) => els.map((el) => el.getAttribute('data-key')))).toEqual([HOME, NOTICE]);
    await win.close();
    // this window stayed where it was, with the same tabs
    expect(await pathname()).toBe(PARAM);
    expect(await tabKeys()).toEqual(before);
  });

  it('a URL loaded with ?target=_blank shows the page here, without the option', async () => {
    await b.page.goto(`${b.baseUrl}${NOTICE}?target=_blank`);
    await waitFor(b.page, 'the option dropped', async () => new URL(b.page.url()).search === '');
    await kept(NOTICE).getByTestId('resource-table').waitFor();
    expect((await tabKeys()).some((k) => k.includes('target'))).toBe(false);
  });

  it('a page with a query is a tab of its own', async () => {
    await b.page.goto(`${b.baseUrl}${NOTICE}?from=e2e`);
    await kept(`${NOTICE}?from=e2e`).getByTestId('resource-table').waitFor();
    expect(await tabKeys()).toContain(`${NOTICE}?from=e2e`);
    expect(await tabKeys()).toContain(NOTICE);
    expect(await tab(`${NOTICE}?from=e2e`).innerText()).toBe('通知公告');
  });

  it('signing out and in again starts from the home tab alone', async () => {
    expect((await tabKeys()).length).toBeGreaterThan(1);
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('logout').click();
    await confirm(b.page);
    await b.page.waitForURL('**/login');
    await signIn(b.page, b.baseUrl);
    await waitForTabs([HOME]);
  });
});

describe('an embedded page kept alive', () => {
  it('keeps the iframe\'s document (not reloaded) while another tab is shown, and reloads it on refresh', async () => {
    const src = `${b.baseUrl}/version.json`;
    const key = `/myiframe/version?src=${encodeURIComponent(src)}`;
    await b.page.goto(`${b.baseUrl}${key}`);
    await b.page.getByTestId('side-menu').waitFor();
    const frameEl = kept(key).getByTestId('iframe-frame');
    await frameEl.waitFor();
    const frame = async () => {
      const f = await (await frameEl.elementHandle())?.contentFrame();
      if (!f) throw new Error('the iframe has no document');
      await f.waitForLoadState();
      return f;
    };
    // a value that lives only as long as the framed document
    await (await frame()).evaluate(() => Object.assign(window, { e2eKept: 'still here' }));
    await mark(frameEl, 'first');

    await showTab(HOME);
    expect(await frameEl.isVisible()).toBe(false);
    await tab(key).click();
    await waitFor(b.page, 'the embedded page on screen', async () => b.page.url().endsWith(key) && (await frameEl.isVisible()));
    expect(await markOf(frameEl)).toBe('first');
    expect(await (await frame()).evaluate(() => (window as unknown as { e2eKept?: string }).e2eKept)).toBe('still here');

    await tabMenu(key, 'refresh');
    await waitFor(b.page, 'the embedded page remounted', async () => (await markOf(kept(key).getByTestId('iframe-frame'))) !== 'first');
    expect(await (await frame()).evaluate(() => (window as unknown as { e2eKept?: string }).e2eKept)).toBeUndefined();
  });
});
