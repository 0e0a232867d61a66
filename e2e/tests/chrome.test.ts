import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { chooseTheme, confirm, signIn, waitFor } from '../flows.js';

const b = useBrowser();

const THEMES = ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'] as const;
const THEME_SHOTS = join(ARTIFACTS, 'themes');

/** The colours that tell the themes apart: sidebar, header (colour or gradient), page and selected menu item. */
async function frameLook(page: Page) {
  return page.evaluate(() => {
    const style = (testId: string) => {
      const el = document.querySelector(`[data-testid="${testId}"]`);
      if (!el) throw new Error(`no ${testId}`);
      return getComputedStyle(el);
    };
    const selected = document.querySelector('[data-testid="side-menu"] .ant-menu-item-selected');
    return {
      theme: document.documentElement.dataset.theme,
      sider: style('sider').backgroundColor,
      header: `${style('shell-header').backgroundColor} ${style('shell-header').backgroundImage}`,
      page: getComputedStyle(document.querySelector('.shell-frame') as Element).backgroundColor,
      selected: selected ? `${getComputedStyle(selected).backgroundColor} ${getComputedStyle(selected).color}` : '',
    };
  });
}


/** The background colour of the list page's primary button (查询). */
async function primaryButtonColour(page: Page): Promise<string> {
  const button = page.getByTestId('resource-search-submit');
  await button.waitFor();
  return button.evaluate((el) => getComputedStyle(el).backgroundColor);
}

async function openLockDialog(page: Page): Promise<void> {
  await page.getByTestId('lock-button').click();
  await page.getByTestId('lock-form').waitFor();
}

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
});

describe('header bar', () => {
  it('lays out its items left to right as spec 2 lists them', async () => {
    const order = ['sidebar-toggle', 'menu-search', 'colour-picker', 'lock-button', 'theme-button', 'lang-switch', 'fullscreen-toggle', 'user-menu'];
    const xs: number[] = [];
    for (const id of order) {
      const box = await b.page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      xs.push(box?.x ?? 0);
    }
    expect(xs).toEqual([...xs].sort((x, y) => x - y));
  });
});

describe('themes', () => {
  it('starts on theme-d2 with the primary colour #52D577 (spec 9)', async () => {
    expect(await b.page.evaluate(() => document.documentElement.dataset.theme)).toBe('d2');
    expect((await frameLook(b.page)).sider).toBe('rgb(235, 241, 246)');
    await b.page.goto(`${b.baseUrl}/system/param`);
    expect(await primaryButtonColour(b.page)).toBe('rgb(82, 213, 119)');
  });

  it('takes the default theme\'s antd styles from the built CSS file, and generates another theme\'s', async () => {
    /** antd's own (hashed) styles that cssinjs wrote into the page at run time */
    const generated = () => b.page.evaluate(() => [...document.querySelectorAll('style[data-css-hash]')]
      .filter((s) => s.textContent?.includes(':where(.css-')).length);
    // the tests' browser asks for less motion, a theme of its own (motion off): the file is of the default
    await b.page.emulateMedia({ reducedMotion: 'no-preference' });
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('resource-table').locator('tbody tr.ant-table-row').first().waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.getByTestId('resource-form-submit').waitFor();
    expect(await b.page.locator('link[rel="stylesheet"][href^="/assets/antd-"]').count()).toBe(1);
    expect(await generated()).toBe(0);
    await b.page.keyboard.press('Escape');
    await chooseTheme(b.page, 'dark');
    expect(await generated()).toBeGreaterThan(0);
    await chooseTheme(b.page, 'd2');
    await b.page.emulateMedia({ reducedMotion: 'reduce' });
  });

  it('applies each of the eleven themes visibly differently, with a screenshot of each at 1440×900', async () => {
    mkdirSync(THEME_SHOTS, { recursive: true });
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('resource-table').waitFor();
    const looks = new Map<string, string>();
    for (const name of THEMES) {
      await chooseTheme(b.page, name);
      const look = await frameLook(b.page);
      expect(look.theme).toBe(name);
      looks.set(name, JSON.stringify([look.sider, look.header, look.page, look.selected]));
      // no focus ring on the theme button in the picture
      await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await b.page.screenshot({ path: join(THEME_SHOTS, `${name}.png`) });
    }
    // no two themes share the frame's colours
    expect(new Set(looks.values()).size).toBe(THEMES.length);
    // spot checks against the palettes
    expect(JSON.parse(looks.get('default') ?? '[]')[0]).toBe('rgb(32, 34, 42)');
    expect(JSON.parse(looks.get('iview') ?? '[]')[0]).toBe('rgb(0, 21, 41)');
    expect(JSON.parse(looks.get('cool') ?? '[]')[1]).toContain('linear-gradient');
    expect(JSON.parse(looks.get('star') ?? '[]')[0]).toBe('rgba(0, 0, 0, 0)');
  });

  it('gives the dark theme antd\'s dark surfaces and keeps the chosen theme across a reload', async () => {
    await chooseTheme(b.page, 'dark');
    const tableBg = () => b.page.getByTestId('resource-table').locator('.ant-table').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await tableBg()).toBe('rgb(38, 45, 55)');
    await b.page.reload();
    await b.page.getByTestId('resource-table').waitFor();
    expect(await b.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await tableBg()).toBe('rgb(38, 45, 55)');
    await chooseTheme(b.page, 'd2');
  });
});

describe('motion', () => {
  /**
   * Opens the theme dialog and returns the class of antd's running zoom-in animation if there was one, else ''.
   * (A 'prepare' step is shown either way: the dialog computes its transform origin there.)
   */
  async function dialogZoom(page: Page): Promise<string> {
    await page.evaluate(() => {
      const w = window as unknown as { zoomSeen: string };
      w.zoomSeen = '';
      const seen = (el: Element) => {
        const cls = el.getAttribute('class') ?? '';
        if (!w.zoomSeen && el.classList.contains('ant-modal') && /(^|\s)ant-zoom-(appear|enter)-active(\s|$)/.test(cls)) w.zoomSeen = cls;
      };
      new MutationObserver((records) => {
        for (const r of records) {
          const nodes = r.type === 'attributes' ? [r.target] : [...r.addedNodes];
          for (const n of nodes) {
            if (!(n instanceof Element)) continue;
            seen(n);
            n.querySelectorAll('.ant-modal').forEach(seen);
          }
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.getByTestId('theme-button').click();
    await page.getByTestId('theme-options').waitFor();
    await page.waitForTimeout(500);
    const zoomed = await page.evaluate(() => (window as unknown as { zoomSeen: string }).zoomSeen);
    await page.keyboard.press('Escape');
    await page.getByTestId('theme-options').waitFor({ state: 'hidden' });
    return zoomed;
  }

  it('animates dialogs, but not when the system asks for less motion', async () => {
    try {
      await b.page.emulateMedia({ reducedMotion: 'no-preference' });
      await b.page.goto(`${b.baseUrl}/wel/index`);
      expect(await dialogZoom(b.page)).toContain('ant-zoom-');
      await b.page.emulateMedia({ reducedMotion: 'reduce' });
      await b.page.goto(`${b.baseUrl}/wel/index`);
      expect(await dialogZoom(b.page)).toBe('');
    } finally {
      await b.page.emulateMedia({ reducedMotion: 'reduce' });
    }
  });
});

describe('primary colour', () => {
  it('changes the primary colour of antd\'s components from the picker, and keeps it across a reload', async () => {
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('colour-picker').click();
    const presets = b.page.locator('.ant-color-picker-presets-color');
    await presets.first().waitFor();
    // the third preset is #1677FF
    await presets.nth(2).click();
    await waitFor(b.page, 'the primary button in #1677FF', async () => (await primaryButtonColour(b.page)) === 'rgb(22, 119, 255)');
    expect(await b.page.evaluate(() => document.documentElement.style.getPropertyValue('--shell-primary'))).toBe('#1677FF');
    await b.page.keyboard.press('Escape');
    await b.page.reload();
    expect(await primaryButtonColour(b.page)).toBe('rgb(22, 119, 255)');
    // a theme that paints with the primary colour follows it (white: the header)
    await chooseTheme(b.page, 'white');
    expect((await frameLook(b.page)).header).toContain('rgb(22, 119, 255)');
    // back to the defaults for the tests that follow
    await chooseTheme(b.page, 'd2');
    await b.page.getByTestId('colour-picker').click();
    await presets.first().click();
    await waitFor(b.page, 'the default colour back', async () => (await primaryButtonColour(b.page)) === 'rgb(82, 213, 119)');
    await b.page.keyboard.press('Escape');
  });
});

describe('screen lock', () => {
  it('requires a lock password (锁屏密码不能为空)', async () => {
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('resource-page').waitFor();
    await openLockDialog(b.page);
    await b.page.getByTestId('lock-submit').click();
    await b.page.getByText('锁屏密码不能为空').waitFor();
    expect(b.page.url()).toContain('/system/param');
  });

  it('locks, forces every navigation to /lock, refuses a wrong password and returns where the user was', async () => {
    await b.page.getByTestId('lock-password').fill('s3cret');
    await b.page.getByTestId('lock-submit').click();
    await b.page.waitForURL('**/lock');
    await b.page.getByTestId('lock-screen').waitFor();
    expect(await b.page.getByTestId('lock-user-name').innerText()).toContain('管理员');
    const stored = await b.page.evaluate(() => JSON.parse(sessionStorage.getItem('saber-lock') ?? '{}').state);
    expect(stored.locked).toBe(true);
    expect(stored.passwordDigest).toMatch(/^[0-9a-f]{32}$/);

    for (const path of ['/wel/index', '/system/param', '/login', '/404']) {
      await b.page.goto(`${b.baseUrl}${path}`);
      await b.page.getByTestId('lock-screen').waitFor();
      expect(new URL(b.page.url()).pathname).toBe('/lock');
    }

    // a reload of the browser stays locked
    await b.page.reload();
    await b.page.getByTestId('lock-screen').waitFor();
    expect(new URL(b.page.url()).pathname).toBe('/lock');

    await b.page.getByTestId('lock-unlock').click();
    await b.page.getByText('请输入锁屏密码').first().waitFor();
    await b.page.getByTestId('lock-unlock-password').fill('wrong');
    await b.page.getByTestId('lock-unlock').click();
    await b.page.getByText('解锁密码错误,请重新输入').waitFor();
    expect(new URL(b.page.url()).pathname).toBe('/lock');

    await b.page.getByTestId('lock-unlock-password').fill('s3cret');
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL('**/system/param');
    await b.page.getByTestId('resource-page').waitFor();
    // unlocked for good: navigation is free again
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.getByTestId('home-greeting').waitFor();
  });

  it('signing out from the lock screen clears the lock and lands on /login', async () => {
    await openLockDialog(b.page);
    await b.page.getByTestId('lock-password').fill('again');
    await b.page.keyboard.press('Enter');
    await b.page.getByTestId('lock-screen').waitFor();
    await b.page.getByTestId('lock-logout').click();
    await confirm(b.page);
    await b.page.waitForURL('**/login');
    expect(await b.page.evaluate(() => JSON.parse(sessionStorage.getItem('saber-lock') ?? '{}').state?.locked)).toBe(false);
    expect(await b.page.evaluate(() => JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.token)).toBeNull();
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.waitForURL('**/login');
    // signing in again is not locked
    await signIn(b.page, b.baseUrl);
  });
});

describe('full screen', () => {
  it('enters and leaves full screen, and the icon follows a full screen left outside the button', async () => {
    const toggle = b.page.getByTestId('fullscreen-toggle');
    const isFullscreen = () => b.page.evaluate(() => document.fullscreenElement !== null);
    await toggle.click();
    await waitFor(b.page, 'full screen', isFullscreen);
    await waitFor(b.page, 'the exit icon', async () => (await toggle.getAttribute('aria-pressed')) === 'true');
    await toggle.click();
    await waitFor(b.page, 'no full screen', async () => !(await isFullscreen()));
    await waitFor(b.page, 'the enter icon', async () => (await toggle.getAttribute('aria-pressed')) === 'false');
    // leaving by other means (Esc, the browser's own control) ends in the same API call
    await toggle.click();
    await waitFor(b.page, 'full screen again', isFullscreen);
    await b.page.evaluate(() => document.exitFullscreen());
    await waitFor(b.page, 'the enter icon after leaving', async () => (await toggle.getAttribute('aria-pressed')) === 'false');
  });
});

describe('menu search', () => {
  it('filters the menu as you type, opens the highlighted page with Enter and closes with Esc', async () => {
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.getByTestId('home-greeting').waitFor();
    await b.page.getByTestId('menu-search').click();
    const input = b.page.getByTestId('menu-search-input');
    await input.waitFor();
    const items = b.page.getByTestId('menu-search-item');
    // everything to begin with: home, notices, parameters
    await waitFor(b.page, 'the whole menu', async () => (await items.count()) >= 3);
    await input.fill('参数');
    await waitFor(b.page, 'one match', async () => (await items.count()) === 1);
    expect(await items.first().getAttribute('data-path')).toBe('/system/param');
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL('**/system/param');
    await input.waitFor({ state: 'hidden' });

    // Ctrl+K opens it too; English names and paths match; arrows move the highlight
    await b.page.keyboard.press('Control+k');
    await input.waitFor();
    await input.fill('/desk');
    await waitFor(b.page, 'the notice page', async () => (await items.count()) === 1);
    await input.fill('parameters');
    await waitFor(b.page, 'the parameter page by its English name', async () => (await items.count()) === 1);
    expect(await items.first().getAttribute('data-path')).toBe('/system/param');
    await input.fill('');
    await waitFor(b.page, 'the whole menu again', async () => (await items.count()) >= 3);
    await b.page.keyboard.press('ArrowDown');
    await b.page.keyboard.press('ArrowDown');
    const highlighted = b.page.locator('[data-testid="menu-search-item"][aria-selected="true"]');
    expect(await highlighted.getAttribute('data-path')).toBe(await items.nth(2).getAttribute('data-path'));

    await input.fill('no such page at all');
    await b.page.getByTestId('menu-search-empty').waitFor();
    await b.page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden' });
    expect(b.page.url()).toContain('/system/param');
  });
});

describe('sidebar', () => {
  it('collapses below 992 px (spec 9 level ≤ 1) and expands again on a wide window', async () => {
    const sider = b.page.getByTestId('sider');
    const collapsed = async () => (await sider.getAttribute('class'))?.includes('ant-layout-sider-collapsed') ?? false;
    expect(await collapsed()).toBe(false);
    await b.page.setViewportSize({ width: 900, height: 800 });
    await waitFor(b.page, 'a collapsed sidebar at 900 px', collapsed);
    // antd's collapsed width, once the transition is over
    await waitFor(b.page, 'the narrow sidebar', async () => (await sider.boundingBox())?.width === 80);
    await b.page.setViewportSize({ width: 1300, height: 800 });
    await waitFor(b.page, 'an expanded sidebar at 1300 px', async () => !(await collapsed()));
    // the toggle still works at any width
    await b.page.getByTestId('sidebar-toggle').click();
    await waitFor(b.page, 'collapsed by the toggle', collapsed);
    await b.page.getByTestId('sidebar-toggle').click();
    await waitFor(b.page, 'expanded by the toggle', async () => !(await collapsed()));
    await b.page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe('top menu', () => {
  it('shows home plus the server\'s top menus, and hides itself when the server has none', async () => {
    const answer = b.page.waitForResponse((r) => r.url().includes('/api/blade-system/menu/top-menu'));
    // each top menu's part of the menu: fetched with the bar (its highlight follows the page) or on the click
    const parts = new Map<string, Promise<unknown>>();
    const onResponse = (r: Response) => {
      const id = /\/menu\/routes\?topMenuId=(\d+)/.exec(r.url())?.[1];
      // read at once (a body is gone after the next navigation); one not needed may fail unheard
      if (id) parts.set(id, r.json().catch(() => null));
    };
    b.page.on('response', onResponse);
    await b.page.reload();
    const topMenus = ((await (await answer).json()) as { data: Array<{ id: string; code: string; name: string }> }).data;
    await b.page.getByTestId('side-menu').waitFor();
    if (topMenus.length === 0) {
      // the seed has no top menus (see the report): nothing to choose, so no bar at all
      expect(await b.page.getByTestId('top-menu').count()).toBe(0);
      return;
    }
    await b.page.getByTestId('top-menu-home').waitFor();
    for (const m of topMenus) await b.page.getByTestId(`top-menu-${m.code}`).waitFor();
    const [first] = topMenus;
    if (!first) return;
    await b.page.getByTestId(`top-menu-${first.code}`).click();
    await waitFor(b.page, `the part of top menu ${first.code}`, async () => parts.has(first.id));
    const tree = ((await parts.get(first.id)) as { data: Array<{ code: string }> }).data;
    b.page.off('response', onResponse);
    for (const root of tree) await b.page.getByTestId(`menu-${root.code}`).waitFor();
    await waitFor(b.page, `top menu ${first.code} highlighted`, async () => (await b.page.getByTestId(`top-menu-${first.code}`).getAttribute('aria-current')) === 'true');
    await b.page.getByTestId('top-menu-home').click();
    await b.page.waitForURL('**/wel/index');
    await b.page.getByTestId('menu-system').waitFor();
    await b.page.getByTestId('menu-desk').waitFor();
  });
});
