import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { launchSecondBrowser, useBrowser } from '../browser.js';
import { clickRowAction, signIn, waitFor } from '../flows.js';

/** Issue 26's shell points: collapsible sidebar groups, at most 20 tabs, home and dashboard cards by permission. */

const b = useBrowser();
const SYS = '/api/blade-system';
const WIDTHS = [1280, 1440] as const;
interface MenuRow { id: string; code: string; path?: string; children?: MenuRow[] }
let admin: string;
/** a second browser: the other users sign in there, beside the administrator */
let other: Browser;

async function call<T>(path: string, json?: unknown): Promise<T> {
  const res = await api<T>(b.baseUrl, admin, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

const flat = (rows: MenuRow[]): MenuRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);

async function menuIds(...codes: string[]): Promise<string[]> {
  const all = flat(await call<MenuRow[]>(`${SYS}/menu/list`));
  return codes.map((c) => all.find((m) => m.code === c)?.id ?? '').filter(Boolean);
}

/** A user of tenant 000000 whose one role holds these menus, signed in on a page of its own. */
async function userWith(account: string, codes: string[]): Promise<Page> {
  const role = await call<{ id: string }>(`${SYS}/role/submit`, { roleName: account, roleAlias: account, sort: 40 });
  await call(`${SYS}/role/grant`, { roleIds: role.id, menuIds: (await menuIds(...codes)).join(',') });
  const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
  await call(`${SYS}/user/submit`, { account, name: account, realName: account, deptId: depts[0]!.id, roleId: role.id, password: md5('First-pass-1') });
  const token = (await apiToken(b.baseUrl, '000000', account, 'First-pass-1'))!;
  const changed = await api(b.baseUrl, token, `${SYS}/user/update-password`, {
    method: 'POST', json: { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') },
  });
  expect(changed.success).toBe(true);
  const context = await other.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signIn(page, b.baseUrl, '000000', account, 'Second-pass-2');
  return page;
}

/** Every API call the page makes and every refusal it gets, from now on. */
function watchCalls(page: Page) {
  const asked: string[] = [];
  const refused: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname); });
  page.on('response', (r: Response) => { if (r.status() === 403) refused.push(r.url()); });
  return { asked, refused };
}

async function useLang(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId(`lang-${lang}`).click();
  await waitFor(page, `the ${lang} UI`, async () => (await page.evaluate(() => document.documentElement.lang)).startsWith(lang));
}

/** A push navigation inside the console (what a sidebar click does), without reloading it. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await waitFor(page, `${path} shown`, async () => new URL(page.url()).pathname + new URL(page.url()).search === path);
}

/** Waits until the sidebar shows this menu item as the current page's: the navigation has been rendered. */
async function selected(page: Page, code: string): Promise<void> {
  await page.locator(`.ant-menu-item-selected [data-testid="menu-${code}"]`).waitFor();
}

/** The open tabs, as the bar keeps them (the bar itself shows those that fit, the others in its overflow menu). */
const tabKeys = (page: Page) => page.evaluate(() => (JSON.parse(sessionStorage.getItem('saber-tabs') ?? '{}') as { state?: { tabs?: string[] } }).state?.tabs ?? []);

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  other = await launchSecondBrowser();
  await signIn(b.page, b.baseUrl);
});

afterAll(async () => {
  await other?.close();
});

describe('home and dashboard cards by permission', () => {
  it('shows an administrator the device figures, in zh and en, at 1280 and 1440 px', async () => {
    for (const lang of ['zh', 'en'] as const) {
      await useLang(b.page, lang);
      await go(b.page, '/wel/dashboard');
      for (const width of WIDTHS) {
        await b.page.setViewportSize({ width, height: 800 });
        for (const card of ['locks', 'ota', 'emergency']) await b.page.getByTestId(`dash-card-${card}`).getByTestId(`dash-${card}`).waitFor();
        const text = await b.page.getByTestId('dash-card-locks').innerText();
        expect(text).toContain(lang === 'zh' ? '在线门锁' : 'Locks online');
        expect(await b.page.getByTestId('dash-card-emergency').innerText()).toContain(lang === 'zh' ? '待审批应急开锁' : 'Emergency requests pending');
        // the three cards share one row at these widths
        const tops = await Promise.all(['locks', 'ota', 'emergency'].map(async (c) => (await b.page.getByTestId(`dash-card-${c}`).boundingBox())!.y));
        expect(new Set(tops).size).toBe(1);
      }
    }
    await useLang(b.page, 'zh');
  });

  it('asks nothing a role may not read: no notice card without notices, only the device cards it may open', async () => {
    const page = await userWith('e2e_locks', ['desk', 'device', 'device_info']);
    const calls = watchCalls(page);
    await page.reload();
    await page.getByTestId('home-greeting').waitFor();
    await page.getByTestId('home-shortcuts').waitFor();
    expect(await page.getByTestId('home-notices').count()).toBe(0);
    await go(page, '/wel/dashboard');
    await page.getByTestId('dash-locks').waitFor();
    expect(await page.getByTestId('dash-card-ota').count()).toBe(0);
    expect(await page.getByTestId('dash-card-emergency').count()).toBe(0);
    expect(calls.asked).not.toContain('/api/blade-desk/notice/list');
    expect(calls.asked).toContain('/api/blade-desk/dashboard/devices');
    expect(calls.refused).toEqual([]);
  });

  it('a role with none of the device screens gets no device card and sends no device call', async () => {
    const page = await userWith('e2e_plain', ['desk', 'notice']);
    const calls = watchCalls(page);
    await go(page, '/wel/dashboard');
    await page.getByTestId('dash-users-total').waitFor();
    expect(await page.locator('[data-testid^="dash-card-"]').count()).toBe(0);
    await go(page, '/wel/index');
    await page.getByTestId('home-notices').waitFor();
    expect(calls.asked).not.toContain('/api/blade-desk/dashboard/devices');
    expect(calls.refused).toEqual([]);
  });
});

describe('sidebar groups', () => {
  it('collapse and expand on a click; only the current page\'s branch is open when arriving in another', async () => {
    for (const width of WIDTHS) {
      await b.page.setViewportSize({ width, height: 800 });
      await go(b.page, '/system/param');
      const param = b.page.getByTestId('menu-param');
      // the page is rendered (its item selected), so the sidebar opened its branch before the clicks below
      await selected(b.page, 'param');
      await b.page.getByTestId('menu-system').click();
      await param.waitFor({ state: 'hidden' });
      await b.page.getByTestId('menu-system').click();
      await param.waitFor();
      // another branch: it opens, the first one closes
      await go(b.page, '/desk/notice');
      await selected(b.page, 'notice');
      await param.waitFor({ state: 'hidden' });
      // the user's toggles stand while they stay in the branch
      await b.page.getByTestId('menu-system').click();
      await param.waitFor();
      await b.page.getByTestId('menu-notice').click();
      await b.page.getByTestId('kept-page').filter({ visible: true }).getByTestId('resource-table').waitFor();
      expect(await param.isVisible()).toBe(true);
    }
  });
});

describe('the tab bar', () => {
  it('keeps at most 20 tabs, closing the least recently used, never one with unsaved changes', async () => {
    // one labelled page with 21 queries: 21 tabs, each a page of its own (docs/keep-alive.md)
    const opened = Array.from({ length: 21 }, (_, i) => `/system/param?e2e=${i + 1}`);
    await go(b.page, '/desk/notice');
    const notice = b.page.locator('[data-testid="kept-page"][data-key="/desk/notice"]');
    await notice.getByTestId('resource-add').click();
    await b.page.locator('#resource_title').fill('未保存的通知');

    // each page on screen before the next (a navigation that overtakes the last one skips rendering it)
    for (const path of opened) {
      await go(b.page, path);
      await b.page.locator(`[data-testid="kept-page"][data-key="${path}"]`).getByTestId('resource-table').waitFor();
    }
    const tabs = await tabKeys(b.page);
    // the notice tab is older than every param tab, but holds a typed form: the older tabs went instead
    expect(tabs).toEqual(['/wel/index', '/desk/notice', ...opened.slice(3)]);

    await go(b.page, '/desk/notice');
    await waitFor(b.page, 'the typed title kept', async () => (await b.page.locator('#resource_title').inputValue()) === '未保存的通知');
  });
});

describe('a tree list', () => {
  it('opens a collapsed parent once a child is added under it, and marks the new row', async () => {
    const CIT = '/api/omc-device/cit-dict';
    const parent = await call<{ id: string }>(`${CIT}/submit`, { code: 'E2E_GROUP', name: 'E2E 分组', sort: 900 });
    await call(`${CIT}/submit`, { parentId: parent.id, code: 'E2E_FIRST', name: 'E2E 第一项', standard: 'PASS', sort: 1 });
    await go(b.page, '/production/citdict');
    const page = b.page.locator('[data-testid="kept-page"][data-key="/production/citdict"]');
    const parentRow = page.locator(`tr[data-row-key="${parent.id}"]`);
    for (const width of WIDTHS) {
      await b.page.setViewportSize({ width, height: 800 });
      await page.getByTestId('resource-table').waitFor();
      // the parent is open on arrival: close it, then add a child under it
      await page.locator('tr', { hasText: 'E2E_FIRST' }).waitFor();
      await parentRow.locator('.ant-table-row-expand-icon').click();
      await page.locator('tr', { hasText: 'E2E_FIRST' }).waitFor({ state: 'hidden' });
      await clickRowAction(parentRow, 'resource-row-add-child');
      const code = `E2E_CHILD_${width}`;
      await b.page.locator('#resource_code').fill(code);
      await b.page.locator('#resource_name').fill(`E2E 子项 ${width}`);
      await b.page.getByTestId('resource-form-submit').click();
      const added = page.locator('tr.resource-row-added', { hasText: code });
      await added.waitFor();
      await page.locator('tr', { hasText: 'E2E_FIRST' }).waitFor();
      expect(await added.isVisible()).toBe(true);
    }
  });
});
