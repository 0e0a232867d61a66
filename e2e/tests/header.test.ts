import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { chooseTheme, openMenu, signIn, waitFor } from '../flows.js';

const b = useBrowser();

const THEMES = ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'] as const;
const WIDTHS = [1280, 1100, 700, 360] as const;
const SHOTS = join(ARTIFACTS, 'header');
/** every theme is pictured at these widths, the default theme (d2) at all of them */
const SHOT_WIDTHS: readonly number[] = [1280, 360];

interface TopMenu { id: string; code: string; name: string }
let topMenus: TopMenu[] = [];


/** Two frames: resize observers have run and the re-render they caused is painted. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** Resizes the window and waits until the sidebar has its width for it (collapsed below 992 px) and the header has fitted. */
async function resize(page: Page, width: number): Promise<void> {
  // a pointer left over a table cell would show its tooltip (the whole text), which is no part of the layout
  await page.mouse.move(1, 1);
  await page.setViewportSize({ width, height: 800 });
  const sider = width < 992 ? 80 : 220;
  await waitFor(page, `a ${sider} px sidebar at ${width} px`, async () => (await page.getByTestId('sider').boundingBox())?.width === sider);
  await settle(page);
  await settle(page);
}

/** What overflows: the document, header children outside the viewport, truncated top-menu labels, the ··· over a tab. */
async function overflowReport(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    if (doc > vw) problems.push(`document ${doc} px wide in a ${vw} px window`);
    const header = document.querySelector<HTMLElement>('[data-testid="shell-header"]');
    if (!header) return ['no header'];
    if (header.scrollWidth > header.clientWidth) problems.push(`header content ${header.scrollWidth} px in ${header.clientWidth} px`);
    const describe = (el: Element) => el.getAttribute('data-testid') ?? el.className.toString().slice(0, 40);
    for (const child of header.querySelectorAll(':scope > *, :scope > * > *')) {
      const r = child.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (child.closest('.shell-top-menu-measure')) continue;
      if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`${describe(child)} at ${r.left}…${r.right} outside 0…${vw}`);
    }
    for (const item of document.querySelectorAll<HTMLElement>('[data-testid="top-menu"] > [data-testid^="top-menu-"]')) {
      if (item.scrollWidth > item.clientWidth) problems.push(`top menu ${describe(item)} truncated (${item.scrollWidth} > ${item.clientWidth})`);
      const nav = item.parentElement?.getBoundingClientRect();
      const r = item.getBoundingClientRect();
      if (nav && (r.right > nav.right + 0.5 || r.left < nav.left - 0.5)) problems.push(`top menu ${describe(item)} cut by the bar`);
    }
    // the tab bar: the visible part of each tab must not lie under the overflow button (···) or the bar's menu
    const bar = document.querySelector('[data-testid="tabs-bar"]');
    const wrap = bar?.querySelector('.ant-tabs-nav-wrap')?.getBoundingClientRect();
    const buttons = [...(bar?.querySelectorAll('.ant-tabs-nav-more, [data-testid="tabs-menu"]') ?? [])]
      .filter((el) => getComputedStyle(el).visibility !== 'hidden' && !el.closest('.ant-tabs-nav-operations-hidden'))
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0);
    for (const tab of bar?.querySelectorAll('.ant-tabs-tab') ?? []) {
      const t = tab.getBoundingClientRect();
      if (!wrap) break;
      const left = Math.max(t.left, wrap.left);
      const right = Math.min(t.right, wrap.right);
      if (right - left < 1) continue; // scrolled out of the bar
      for (const btn of buttons) {
        if (Math.min(right, btn.right) - Math.max(left, btn.left) > 0.5 && Math.min(t.bottom, btn.bottom) - Math.max(t.top, btn.top) > 0.5) {
          problems.push(`tab "${tab.textContent}" under a tab-bar button`);
        }
      }
      if (bar && t.right > bar.getBoundingClientRect().right + 0.5 && right === t.right) problems.push(`tab "${tab.textContent}" past the bar`);
    }
    if (bar?.querySelector('.ant-tabs-nav-operations:not(.ant-tabs-nav-operations-hidden) .ant-tabs-nav-more')) problems.push('(info) ··· shown');
    const tabsBar = bar?.getBoundingClientRect();
    if (tabsBar && tabsBar.right > vw + 0.5) problems.push(`tab bar ends at ${tabsBar.right}`);
    return problems;
  });
}

/** Test ids of the top menu's items shown in the bar, and of those in its "more" menu. */
async function topMenuPlaces(page: Page): Promise<{ bar: string[]; more: string[] }> {
  const bar = await page.locator('[data-testid="top-menu"] > [data-testid^="top-menu-"]').evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-testid') ?? ''));
  const more: string[] = [];
  if (bar.includes('top-menu-more')) {
    await page.getByTestId('top-menu-more').click();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last();
    await menu.waitFor();
    more.push(...(await menu.locator('[data-testid^="top-menu-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''))));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  }
  return { bar: bar.filter((id) => id !== 'top-menu-more'), more };
}

/** sRGB contrast ratio between an element's text colour and what is painted behind it. */
async function contrast(page: Page, selector: string, base: string): Promise<number> {
  return page.evaluate(([sel, under]) => {
    const parse = (c: string) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      const [r = 0, g = 0, bl = 0, a = 1] = (m?.[1] ?? '0,0,0,0').split(',').map(Number);
      return [r, g, bl, a] as [number, number, number, number];
    };
    const over = (top: number[], bottom: number[]) => [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (bottom[i] ?? 0) * (1 - (top[3] ?? 1)));
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    // the backgrounds from the element up, painted over the theme's base
    const layers: number[][] = [];
    for (let n: Element | null = el; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      // a gradient (the cool header): its last stop, where the tools sit
      const stops = style.backgroundImage.includes('gradient') ? style.backgroundImage.match(/rgba?\([^)]+\)/g) : null;
      const bg = stops?.length ? parse(stops[stops.length - 1] ?? '') : parse(style.backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let behind = parse(under).slice(0, 3);
    for (const layer of layers.reverse()) behind = over(layer, behind);
    const ink = over(parse(getComputedStyle(el).color), behind);
    const lum = ([r, g, bl]: number[]) => {
      const lin = (c = 0) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
    };
    const [hi, lo] = [lum(ink), lum(behind)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  }, [selector, base] as const);
}

/** Accessible names of the buttons of the header, its "more tools" menu and the tab bar; raw icon names left exposed. */
async function accessibleNames(page: Page) {
  return page.evaluate(() => {
    const hidden = (el: Element) => el.closest('[aria-hidden="true"]') !== null;
    const nameOf = (el: Element): string => {
      const label = el.getAttribute('aria-label');
      if (label) return label.trim();
      const parts: string[] = [];
      const walk = (n: Node) => {
        if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent ?? '');
        else if (n instanceof Element && n.getAttribute('aria-hidden') !== 'true') {
          if (n.getAttribute('aria-label')) parts.push(n.getAttribute('aria-label') ?? '');
          else n.childNodes.forEach(walk);
        }
      };
      el.childNodes.forEach(walk);
      return parts.join(' ').replace(/\s+/g, ' ').trim();
    };
    const roots = ['[data-testid="shell-header"]', '[data-testid="tabs-bar"]', '[data-testid="header-more-panel"]']
      .flatMap((s) => [...document.querySelectorAll(s)]);
    const buttons: Array<{ id: string; name: string }> = [];
    const rawIcons: string[] = [];
    for (const root of roots) {
      for (const el of root.querySelectorAll('button, [role="button"]')) {
        if (hidden(el) || el.closest('.shell-top-menu-measure')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        buttons.push({ id: el.getAttribute('data-testid') ?? el.className.toString().slice(0, 40), name: nameOf(el) });
      }
      for (const img of root.querySelectorAll('[role="img"]')) {
        if (!hidden(img)) rawIcons.push(img.getAttribute('aria-label') ?? '(no name)');
      }
    }
    return { buttons, rawIcons: rawIcons.filter((n) => /^[a-z0-9-]+$/.test(n)) };
  });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const answer = b.page.waitForResponse((r) => r.url().includes('/api/blade-system/menu/top-menu'));
  await signIn(b.page, b.baseUrl);
  topMenus = ((await (await answer).json()) as { data: TopMenu[] }).data;
  // more tabs than a narrow bar holds (so its ··· shows), and one on screen with a close button (home is pinned)
  for (const path of ['/wel/dashboard', '/info/index', '/desk/notice', '/system/param?page=2', '/system/param?page=3', '/system/param?page=4']) {
    await b.page.goto(`${b.baseUrl}${path}`);
    await b.page.locator(`[data-testid="tab"][data-key="${path}"]`).waitFor();
  }
  await openMenu(b.page, 'system', 'param');
  await b.page.waitForURL('**/system/param');
  await b.page.getByTestId('resource-table').filter({ visible: true }).waitFor();
});

describe('the header at every width', () => {
  it('overflows nowhere at 1280, 1100, 700 and 360 px in any theme, with screenshots', async () => {
    expect(topMenus.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const overflowSeen = new Set<number>();
    for (const theme of THEMES) {
      await resize(b.page, 1440);
      await chooseTheme(b.page, theme);
      for (const width of WIDTHS) {
        await resize(b.page, width);
        const report = await overflowReport(b.page);
        if (report.includes('(info) ··· shown')) overflowSeen.add(width);
        problems.push(...report.filter((p) => !p.startsWith('(info)')).map((p) => `${theme} @ ${width}: ${p}`));
        if (theme === 'd2' || SHOT_WIDTHS.includes(width)) {
          await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await b.page.screenshot({ path: join(SHOTS, `${theme}-${width}.png`) });
        }
      }
    }
    // English labels are longer: the default theme again in English
    await resize(b.page, 1440);
    await chooseTheme(b.page, 'd2');
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'en');
    for (const width of WIDTHS) {
      await resize(b.page, width);
      problems.push(...(await overflowReport(b.page)).filter((p) => !p.startsWith('(info)')).map((p) => `en d2 @ ${width}: ${p}`));
      await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await b.page.screenshot({ path: join(SHOTS, `d2-${width}-en.png`) });
    }
    await resize(b.page, 1440);
    await b.page.getByTestId('lang-zh').click();
    await waitFor(b.page, 'the Chinese UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'zh-CN');
    expect(problems).toEqual([]);
    // the narrow bars did have more tabs than room: the ··· was there and covered none
    expect([...overflowSeen]).toEqual(expect.arrayContaining([700, 360]));
    await resize(b.page, 1440);
    await chooseTheme(b.page, 'd2');
  });

  it('keeps every top menu reachable: whole in the bar, or in the "more" menu', async () => {
    const all = ['top-menu-home', ...topMenus.map((m) => `top-menu-${m.code}`)];
    for (const width of WIDTHS) {
      await resize(b.page, width);
      const places = await topMenuPlaces(b.page);
      expect([...places.bar, ...places.more], `${width} px`).toEqual(all);
      if (width === 1280) expect(places.bar.length, 'at 1280 px the bar shows at least home').toBeGreaterThan(0);
      if (width === 360) expect(places.more.length, 'at 360 px most go into "more"').toBeGreaterThan(0);
    }
    await resize(b.page, 1440);
    expect((await topMenuPlaces(b.page)).more).toEqual([]);
  });

  it('highlights the top menu of a page opened from the sidebar, also inside "more"', async () => {
    const system = topMenus.find((m) => m.code === 'system');
    expect(system, 'the seeded 系统管理 top menu').toBeDefined();
    await resize(b.page, 1440);
    await b.page.getByTestId('menu-home').click();
    await b.page.waitForURL('**/wel/index');
    await waitFor(b.page, '首页 highlighted', async () => (await b.page.getByTestId('top-menu-home').getAttribute('aria-current')) === 'true');
    // reached from the sidebar, not from the top menu
    if (!(await b.page.getByTestId('menu-param').isVisible())) await openMenu(b.page, 'system');
    await b.page.getByTestId('menu-param').click();
    await b.page.waitForURL('**/system/param');
    await waitFor(b.page, '系统管理 highlighted', async () => (await b.page.getByTestId('top-menu-system').getAttribute('aria-current')) === 'true');
    expect(await b.page.getByTestId('top-menu-home').getAttribute('aria-current')).toBe('false');

    // narrower: 系统管理 sits in "more", which carries the highlight, and inside it 系统管理 is marked
    let width = 1100;
    await resize(b.page, width);
    while ((await topMenuPlaces(b.page)).bar.includes('top-menu-system')) {
      width -= 100;
      await resize(b.page, width);
    }
    expect(await b.page.getByTestId('top-menu-more').getAttribute('aria-current')).toBe('true');
    await b.page.getByTestId('top-menu-more').click();
    const menu = b.page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last();
    expect(await menu.getByTestId('top-menu-system').getAttribute('aria-current')).toBe('true');
    expect(await menu.locator('.ant-dropdown-menu-item-selected').getByTestId('top-menu-system').count()).toBe(1);
    await b.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // back home from the sidebar: the highlight goes to 首页 (in the bar, or in "more" too)
    await b.page.getByTestId('menu-home').click();
    await b.page.waitForURL('**/wel/index');
    if ((await topMenuPlaces(b.page)).bar.includes('top-menu-home')) {
      await waitFor(b.page, '首页 highlighted', async () => (await b.page.getByTestId('top-menu-home').getAttribute('aria-current')) === 'true');
      expect(await b.page.getByTestId('top-menu-more').getAttribute('aria-current')).toBe('false');
    } else {
      await b.page.getByTestId('top-menu-more').click();
      const again = b.page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last();
      expect(await again.getByTestId('top-menu-home').getAttribute('aria-current')).toBe('true');
      expect(await again.getByTestId('top-menu-system').getAttribute('aria-current')).toBe('false');
      await b.page.keyboard.press('Escape');
      await again.waitFor({ state: 'hidden' });
    }
    await resize(b.page, 1440);
    await b.page.getByTestId('menu-param').click();
    await b.page.waitForURL('**/system/param');
  });

  it('folds the tools into "more tools" on a narrow header, where they still work', async () => {
    await resize(b.page, 360);
    for (const id of ['user-menu', 'sidebar-toggle', 'menu-search', 'header-more']) {
      expect(await b.page.getByTestId(id).isVisible(), id).toBe(true);
    }
    // a folded tool's badge shows as a dot on "more tools": an error caught in the page goes to the local error log
    await b.page.evaluate(() => { setTimeout(() => { throw new Error('header test: a logged error'); }); });
    await waitFor(b.page, 'a dot on "more tools"', async () => Number(await b.page.getByTestId('header-more-badge').getAttribute('data-count')) > 0);
    expect(await b.page.getByTestId('header-more-badge').locator('.ant-badge-dot').count()).toBe(1);
    await b.page.getByTestId('header-more').click();
    const panel = b.page.getByTestId('header-more-panel');
    await panel.waitFor();
    for (const id of ['tool-error-log', 'tool-notice', 'tool-server-check', 'colour-picker', 'lock-button', 'theme-button', 'lang-switch', 'fullscreen-toggle']) {
      expect(await panel.getByTestId(id).isVisible(), `${id} in the "more tools" menu`).toBe(true);
    }
    await b.page.screenshot({ path: join(SHOTS, 'd2-360-more-tools.png') });
    // the panel itself stays inside the window
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    // a tool used from there: the language
    await panel.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'en');
    await b.page.getByTestId('lang-zh').click();
    await waitFor(b.page, 'the Chinese UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'zh-CN');
    // the notices' popover opens from there too
    if (!(await panel.isVisible())) await b.page.getByTestId('header-more').click();
    await panel.getByTestId('tool-notice').click();
    await b.page.getByTestId('notice-popover').waitFor();
    await settle(b.page);
    const notices = await b.page.getByTestId('notice-popover').boundingBox();
    expect(notices && notices.x >= 0 && notices.x + notices.width <= 360, `notices at ${JSON.stringify(notices)}`).toBe(true);
    await b.page.screenshot({ path: join(SHOTS, 'd2-360-notices.png') });
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('notice-popover').waitFor({ state: 'hidden' });
    // and the lock dialog
    if (!(await panel.isVisible())) await b.page.getByTestId('header-more').click();
    await panel.getByTestId('lock-button').click();
    await b.page.getByTestId('lock-form').waitFor();
    await b.page.getByTestId('lock-cancel').click();
    await b.page.getByTestId('lock-form').waitFor({ state: 'hidden' });
    if (await panel.isVisible()) await b.page.keyboard.press('Escape');
    await resize(b.page, 1440);
    expect(await b.page.getByTestId('header-more').count()).toBe(0);
  });
});

describe('tabs and header tools in every theme', () => {
  it('shows the active tab\'s close button and the header icons with enough contrast (the white theme too)', async () => {
    await resize(b.page, 1440);
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('resource-table').filter({ visible: true }).waitFor();
    const low: string[] = [];
    for (const theme of THEMES) {
      await chooseTheme(b.page, theme);
      const base = theme === 'star' ? 'rgb(31, 22, 64)' : theme === 'dark' ? 'rgb(44, 54, 67)' : 'rgb(255, 255, 255)';
      const close = await contrast(b.page, '[data-testid="tabs-bar"] .ant-tabs-tab-active .ant-tabs-tab-remove', base);
      // non-text contrast (WCAG 1.4.11): 3:1
      if (close < 3) low.push(`${theme}: active tab's close button ${close.toFixed(2)}:1`);
      const tool = await contrast(b.page, '[data-testid="lock-button"]', base);
      if (tool < 3) low.push(`${theme}: header icon ${tool.toFixed(2)}:1`);
      if (theme === 'white') {
        const active = b.page.locator('[data-testid="tabs-bar"] .ant-tabs-tab-active');
        await active.screenshot({ path: join(SHOTS, 'white-active-tab.png') });
      }
    }
    expect(low).toEqual([]);
    await chooseTheme(b.page, 'd2');
  });
});

describe('screen readers', () => {
  const RAW = /^(menu-fold|menu-unfold|bg-colors|skin|lock|fullscreen|fullscreen-exit|bug|bell|cloud-server|experiment|ellipsis|more|down|close|user|search|home|setting|desktop)$/;

  async function check(lang: 'zh' | 'en', width: number) {
    await resize(b.page, width);
    // the folded tools are checked in their "more tools" menu
    const folded = (await b.page.getByTestId('header-more').count()) > 0;
    if (folded) {
      await b.page.getByTestId('header-more').click();
      await b.page.getByTestId('header-more-panel').waitFor();
    }
    const { buttons, rawIcons } = await accessibleNames(b.page);
    expect(rawIcons, `${lang} @ ${width}: icons exposed by their names`).toEqual([]);
    const ids = buttons.map((x) => x.id);
    for (const id of ['sidebar-toggle', 'menu-search', 'tool-error-log', 'tool-notice', 'tool-server-check', 'colour-picker', 'lock-button', 'theme-button', 'fullscreen-toggle', 'user-menu', 'tabs-menu']) {
      expect(ids, `${lang} @ ${width}: ${id} present`).toContain(id);
    }
    for (const { id, name } of buttons) {
      expect(name, `${lang} @ ${width}: ${id} named`).not.toBe('');
      expect(RAW.test(name), `${lang} @ ${width}: ${id} named "${name}"`).toBe(false);
      // named in the UI language: Chinese words in zh; in en, none (the user's name aside)
      // a language's button is named in that language (中文, English), as a language chooser should be
      if (id.startsWith('lang-')) continue;
      if (lang === 'zh' && id !== 'top-menu-more') expect(/[\u4e00-\u9fa5]/.test(name), `${lang}: ${id} named "${name}"`).toBe(true);
      if (lang === 'en' && id !== 'user-menu') expect(/[\u4e00-\u9fa5]/.test(name), `${lang}: ${id} named "${name}"`).toBe(false);
    }
    const closes = buttons.filter((x) => x.id.includes('ant-tabs-tab-remove'));
    expect(closes.length, 'tab close buttons').toBeGreaterThan(0);
    if (folded) {
      await b.page.keyboard.press('Escape');
      await b.page.getByTestId('header-more-panel').waitFor({ state: 'hidden' });
    }
    return buttons;
  }

  it('names every icon button of the header, the tab bar and the sidebar toggle in Chinese and in English', async () => {
    await resize(b.page, 1440);
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.getByTestId('resource-table').filter({ visible: true }).waitFor();
    const zh = await check('zh', 1280);
    expect(zh.find((x) => x.id === 'sidebar-toggle')?.name).toBe('收起菜单');
    expect(zh.find((x) => x.id === 'colour-picker')?.name).toBe('主题色');
    await check('zh', 360);
    await resize(b.page, 1440);
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'en');
    const en = await check('en', 1280);
    expect(en.find((x) => x.id === 'sidebar-toggle')?.name).toBe('Collapse menu');
    expect(en.find((x) => x.id === 'colour-picker')?.name).toBe('Primary colour');
    await check('en', 360);
    await resize(b.page, 1440);
    await b.page.getByTestId('lang-zh').click();
    await waitFor(b.page, 'the Chinese UI', async () => (await b.page.evaluate(() => document.documentElement.lang)) === 'zh-CN');
  });
});
