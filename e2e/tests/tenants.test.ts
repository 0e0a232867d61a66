import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { confirm, signIn, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();
const SYS = '/api/blade-system';
const PACKAGE = 'E2E基础套餐';
const OTHER_PACKAGE = 'E2E部门套餐';
const TENANT = 'E2E华东锁业';
const NEW_PASSWORD = 'E2e-pass-2026';

/** Set by the tests in order: the tenant made in (b), the second browser of its admin in (c). */
let tenantId = '';
let adminPassword = '';
let adminToken = '';
let tenantBrowser: Browser | undefined;
let tenantContext: BrowserContext | undefined;
let tenantPage: Page | undefined;

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `tenants-${name}.png`) });

/** The element on screen with this test id: pages kept alive in hidden tabs carry the same ids. */
function shown(page: Page, testId: string) {
  return page.getByTestId(testId).filter({ visible: true });
}

/** Rows of the list on screen. */
function rows(page: Page) {
  return shown(page, 'resource-table').locator('tbody tr.ant-table-row');
}

/**
 * Opens a screen from the sidebar (its submenu only when closed) and waits until its list page is on
 * screen with its toolbar and its first answer in: the table has rows or says it has none.
 */
async function openScreen(page: Page, parent: string, code: string, route: string): Promise<void> {
  const item = page.getByTestId(`menu-${code}`);
  if (!(await item.isVisible())) await page.getByTestId(`menu-${parent}`).click();
  await item.click();
  await page.waitForURL(`**${route}`);
  await page.locator(`[data-testid="resource-page"][data-resource="${code}"]`).filter({ visible: true }).waitFor();
  await shown(page, 'resource-reload').waitFor();
  await waitFor(page, `the ${code} list loaded`, async () => {
    const table = shown(page, 'resource-table');
    if ((await table.locator('.ant-spin-spinning').count()) > 0) return false;
    return (await table.locator('tbody tr.ant-table-row, tbody .ant-empty').count()) > 0;
  });
}

/** The open dialog holding this test id. */
function dialogOf(page: Page, testId: string) {
  return page.locator('.ant-modal-wrap').filter({ has: page.getByTestId(testId) });
}

/** Types into a tree select's search and checks the node with this exact title. */
async function checkTreeNode(page: Page, inputSelector: string, title: string): Promise<void> {
  const input = page.locator(inputSelector);
  await input.click();
  await input.fill(title);
  const node = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-treenode')
    .filter({ has: page.locator('.ant-select-tree-title', { hasText: new RegExp(`^${title}$`) }) });
  await node.first().waitFor();
  await node.first().locator('.ant-select-tree-checkbox').click();
  // the search may be cleared by the check, and the tree's virtual list then shows other nodes: search again to see it
  await waitFor(page, `${title} checked`, async () => {
    if ((await node.count()) === 0) await input.fill(title);
    return (await node.first().locator('.ant-select-tree-checkbox-checked').count()) === 1;
  });
}

async function grantTree(token: string) {
  type Node = { id: string; title: string; category?: number; children?: Node[] };
  const res = await api<{ menu: Node[] }>(b.baseUrl, token, `${SYS}/menu/grant-tree`);
  const all: Node[] = [];
  const walk = (list: Node[]) => list.forEach((n) => { all.push(n); walk(n.children ?? []); });
  walk(res.data.menu);
  return all;
}

/** The codes of the sidebar's entries, with every submenu opened. */
async function sidebarCodes(page: Page): Promise<string[]> {
  const menu = page.getByTestId('side-menu');
  await menu.waitFor();
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let i = 0; i < 20 && (await closed.count()) > 0; i++) {
    const before = await closed.count();
    await closed.first().click();
    await waitFor(page, 'a submenu opened', async () => (await closed.count()) < before);
  }
  const ids = await menu.locator('[data-testid^="menu-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(5)));
  return [...new Set(ids)].sort();
}

beforeAll(async () => {
  adminToken = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  await signIn(b.page, b.baseUrl);
});

afterAll(async () => {
  await tenantContext?.close().catch(() => undefined);
  await tenantBrowser?.close().catch(() => undefined);
});

describe('tenant packages, tenants and their administrators', () => {
  it('(a) creates a package from menus picked in the tree of menus and buttons, asking for the name and the menus first', async () => {
    const page = b.page;
    await openScreen(page, 'system', 'tenant_package', '/system/tenantpackage');
    await shown(page, 'resource-add').click();
    const dialog = dialogOf(page, 'resource-form');
    await dialog.waitFor();
    await shown(page, 'resource-form-submit').click();
    await dialog.locator('.ant-form-item-explain-error', { hasText: '请输入套餐名称' }).waitFor();
    await dialog.locator('.ant-form-item-explain-error', { hasText: '请选择菜单' }).waitFor();
    await shot(page, 'a-package-required');

    await page.locator('#resource_packageName').fill(PACKAGE);
    // 工作台 › 通知公告 with its buttons, 系统管理 › 部门管理 with its buttons
    await checkTreeNode(page, '#resource_menuId', '通知公告');
    await checkTreeNode(page, '#resource_menuId', '部门管理');
    await waitFor(page, 'the required message gone', async () => (await dialog.locator('.ant-form-item-explain-error', { hasText: '请选择菜单' }).count()) === 0);
    await shot(page, 'a-package-tree');
    await page.keyboard.press('Escape'); // the tree's list first
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
    await shown(page, 'resource-form-submit').click();
    await toast(page, '新增成功');
    await dialog.waitFor({ state: 'hidden' });

    const row = rows(page).filter({ hasText: PACKAGE });
    await row.waitFor();
    // the menus and their buttons: more than the two screens
    const count = Number(await row.locator('td').nth(2).innerText());
    expect(count).toBeGreaterThan(4);
    // add, edit and delete; never a view button (the definition hides it)
    await expect(row.getByTestId('resource-row-edit').count()).resolves.toBe(1);
    await expect(row.getByTestId('resource-row-delete').count()).resolves.toBe(1);
    await expect(shown(page, 'resource-row-view').count()).resolves.toBe(0);
    await shown(page, 'resource-batch-delete').waitFor();

    // the stored menus come back checked in the edit form
    const pkg = (await api<{ records: { id: string; packageName: string; menuId: string }[] }>(b.baseUrl, adminToken, `${SYS}/tenant-package/list`, {})).data.records.find((p) => p.packageName === PACKAGE)!;
    const menus = await grantTree(adminToken);
    const titles = pkg.menuId.split(',').map((id) => menus.find((m) => m.id === id)?.title);
    expect(titles).toContain('通知公告');
    expect(titles).toContain('部门管理');
    expect(titles).not.toContain('用户管理');
    await clickRowAction(row, 'resource-row-edit');
    await dialog.waitFor();
    await waitFor(page, 'the edit form loaded', async () => (await page.locator('#resource_packageName').inputValue()) === PACKAGE);
    await dialog.locator('.ant-select-selection-item').first().waitFor();
    await shown(page, 'resource-form-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    await shot(page, 'a-package-list');
  });

  it('(b) creates a tenant on that package: the server makes its 6-digit id, shown on create and listed', async () => {
    const page = b.page;
    await openScreen(page, 'system', 'tenant', '/system/tenant');
    await shown(page, 'tenant-setting').waitFor();
    await shown(page, 'resource-add').click();
    const dialog = dialogOf(page, 'resource-form');
    await dialog.waitFor();
    await expect(page.locator('#resource_tenantId').count()).resolves.toBe(0); // made by the server
    await page.locator('#resource_tenantName').fill(TENANT);
    await page.locator('#resource_linkman').fill('李四');
    await page.locator('#resource_packageId').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: PACKAGE }).click();
    await shown(page, 'resource-form-submit').click();
    await toast(page, '新增成功');
    const created = page.getByTestId('tenant-created');
    await created.waitFor();
    tenantId = (await created.getAttribute('data-tenant-id')) ?? '';
    expect(tenantId).toMatch(/^\d{6}$/);
    await dialog.waitFor({ state: 'hidden' });
    // no password typed: the server made one, shown this once
    const issued = page.getByTestId('tenant-admin-password');
    await issued.waitFor();
    await expect(issued.innerText()).resolves.toContain(tenantId);
    adminPassword = (await page.getByTestId('tenant-admin-password-value').innerText()).trim();
    expect(adminPassword).toMatch(/^\S{14}$/);
    await shot(page, 'b-tenant-admin-password');
    await page.getByTestId('tenant-admin-password-close').click();
    await issued.waitFor({ state: 'hidden' });
    // an edit offers no password field: it was set once
    await clickRowAction(rows(page).filter({ hasText: TENANT }), 'resource-row-edit');
    await dialog.waitFor();
    await page.locator('#resource_tenantName').waitFor();
    expect(await page.locator('#resource_adminPassword').count()).toBe(0);
    await shown(page, 'resource-form-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = rows(page).filter({ hasText: TENANT });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(tenantId);
    await expect(row.innerText()).resolves.toContain(PACKAGE);
    await expect(row.innerText()).resolves.toContain('长期有效');
    await shot(page, 'b-tenant-created');
  });

  it('(c) signs the new tenant\'s admin in with the password shown once (a fresh browser); the sidebar holds only the package\'s menus', async () => {
    tenantBrowser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    tenantContext = await tenantBrowser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', reducedMotion: 'reduce' });
    const page = await tenantContext.newPage();
    tenantPage = page;
    await page.goto(`${b.baseUrl}/login`);
    await page.getByTestId('login-tenant').fill(tenantId);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill(adminPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname !== '/login', { timeout: 15_000 });
    // the initial password must be changed before anything is saved: the console may ask for it in a
    // dialog of its own; either way it is changed here through the API with the browser's session
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.token?.content as string);
    expect(token).toBeTruthy();
    const info = await api<{ passwordReset?: boolean }>(b.baseUrl, token, `${SYS}/user/info`);
    expect(info.data.passwordReset).toBe(true);
    const changed = await api<boolean>(b.baseUrl, token, `${SYS}/user/update-password`, {
      method: 'POST', json: { oldPassword: md5(adminPassword), newPassword: md5(NEW_PASSWORD), newPassword1: md5(NEW_PASSWORD) },
    });
    expect(changed.code).toBe(200);
    await page.goto(`${b.baseUrl}/wel/index`);
    await page.getByTestId('side-menu').waitFor();
    await page.getByTestId('home-greeting').waitFor();
    await waitFor(page, 'no password dialog left', async () => (await page.locator('.ant-modal-wrap').filter({ visible: true }).count()) === 0);
    expect(await sidebarCodes(page)).toEqual(['dept', 'desk', 'home', 'notice', 'system']);
    await shot(page, 'c-tenant-admin-sidebar');
  });

  it('(d) 套餐配置 puts the tenant on another package; the admin\'s menus follow it', async () => {
    const menus = await grantTree(adminToken);
    const dept = menus.find((m) => m.title === '部门管理' && m.category === 1)!;
    const deptButtons = menus.filter((m) => m.category === 2 && (dept.children ?? []).some((c) => c.id === m.id));
    const made = await api<{ id: string }>(b.baseUrl, adminToken, `${SYS}/tenant-package/submit`, {
      method: 'POST', json: { packageName: OTHER_PACKAGE, menuId: [dept.id, ...deptButtons.map((m) => m.id)].join(',') },
    });
    expect(made.code).toBe(200);

    const page = b.page;
    await shown(page, 'resource-reload').click();
    const row = rows(page).filter({ hasText: TENANT });
    await row.waitFor();
    await clickRowAction(row, 'tenant-row-package');
    const dialog = dialogOf(page, 'tenant-package-form');
    await dialog.waitFor();
    await waitFor(page, 'the current package shown', async () => (await dialog.getByTestId('tenant-package-current').innerText()).includes(PACKAGE));
    await dialog.locator('.ant-select', { has: page.locator('#tenant-package-form_packageId') }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: OTHER_PACKAGE }).click();
    await shot(page, 'd-package-dialog');
    await dialog.getByTestId('tenant-package-form-submit').click();
    await toast(page, '配置成功');
    await dialog.waitFor({ state: 'hidden' });
    await waitFor(page, 'the row shows the new package', async () => (await row.innerText()).includes(OTHER_PACKAGE));
    const detail = await api<{ packageName: string } | null>(b.baseUrl, adminToken, `${SYS}/tenant/package-detail?tenantId=${tenantId}`);
    expect(detail.data?.packageName).toBe(OTHER_PACKAGE);

    // the tenant's admin, on reload: 通知公告 is gone with 工作台
    type Route = { code: string; children?: Route[] };
    const codes = (list: Route[]): string[] => list.flatMap((r) => [r.code, ...codes(r.children ?? [])]);
    const tenantToken = (await apiToken(b.baseUrl, tenantId, 'admin', NEW_PASSWORD))!;
    const routes = await api<Route[]>(b.baseUrl, tenantToken, `${SYS}/menu/routes`);
    expect(codes(routes.data).sort()).toEqual(['dept', 'system']);
    const other = tenantPage!;
    await other.reload();
    await other.getByTestId('side-menu').waitFor();
    let seen: string[] = [];
    await waitFor(other, 'the sidebar follows the package', async () => {
      seen = await sidebarCodes(other);
      return seen.join() === ['dept', 'home', 'system'].join();
    }, 20_000).catch(async (e: unknown) => {
      await shot(other, 'd-failed-tenant-sidebar');
      throw new Error(`the sidebar shows ${seen.join()}`, { cause: e });
    });
    await shot(other, 'd-tenant-admin-sidebar');
  });

  it('授权配置 sets the accounts and the expiry of the selected tenants; an expired one is tagged', async () => {
    const page = b.page;
    await shown(page, 'tenant-setting').click();
    await toast(page, '请选择至少一条数据');
    const row = rows(page).filter({ hasText: TENANT });
    await row.locator('.ant-checkbox-input').check();
    await shown(page, 'tenant-setting').click();
    const dialog = dialogOf(page, 'tenant-setting-form');
    await dialog.waitFor();
    await expect(dialog.getByTestId('tenant-setting-tenants').innerText()).resolves.toContain(tenantId);
    await page.locator('#tenant-setting-form_accountNumber').fill('20');
    await page.locator('#tenant-setting-form_expireTime').click();
    await page.locator('#tenant-setting-form_expireTime').fill('2020-01-01 00:00:00');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('tenant-setting-form-submit').click();
    await toast(page, '配置成功');
    await dialog.waitFor({ state: 'hidden' });
    await row.getByTestId('tenant-expired').waitFor();
    await expect(row.innerText()).resolves.toContain('2020-01-01 00:00:00');
    await shot(page, 'e-expired');
    // back to no expiry and unlimited accounts
    await shown(page, 'tenant-setting').click();
    await dialog.waitFor();
    await page.locator('#tenant-setting-form_accountNumber').fill('-1');
    await waitFor(page, 'the stored expiry in the form', async () => (await page.locator('#tenant-setting-form_expireTime').inputValue()) === '2020-01-01 00:00:00');
    await dialog.locator('.ant-picker').hover();
    await dialog.locator('.ant-picker-clear').click();
    await waitFor(page, 'the expiry cleared', async () => (await page.locator('#tenant-setting-form_expireTime').inputValue()) === '');
    await dialog.getByTestId('tenant-setting-form-submit').click();
    await toast(page, '配置成功');
    await dialog.waitFor({ state: 'hidden' });
    await waitFor(page, 'no expiry, unlimited', async () => {
      const t = await row.innerText();
      return t.includes('长期有效') && t.includes('不限');
    });
  });

  it('deletes the tenant made here after confirmation', async () => {
    const page = b.page;
    const row = rows(page).filter({ hasText: TENANT });
    await clickRowAction(row, 'resource-row-delete');
    await confirm(page);
    await toast(page, '删除成功');
    await row.waitFor({ state: 'detached' });
  });
});

describe('top menus and the menu tree', () => {
  it('菜单配置 shows the stored menus of a top menu checked in the tree and saves a change', async () => {
    const page = b.page;
    await openScreen(page, 'system', 'topmenu', '/system/topmenu');
    type Top = { id: string; name: string };
    const tops = (await api<{ records: Top[] }>(b.baseUrl, adminToken, `${SYS}/topmenu/list?size=50`)).data.records;
    const top = tops.find((t) => t.name === '工作台') ?? tops[0]!;
    const before = (await api<{ menu: string[] }>(b.baseUrl, adminToken, `${SYS}/menu/top-tree-keys?topMenuIds=${top.id}`)).data.menu;
    try {
      await shown(page, 'topmenu-setting').click();
      await toast(page, '请选择至少一条数据');
      const row = rows(page).filter({ hasText: top.name });
      await row.locator('.ant-checkbox-input').check();
      await shown(page, 'topmenu-setting').click();
      const tree = page.getByTestId('topmenu-grant-tree');
      await tree.and(page.locator('[data-loaded="true"]')).waitFor();
      const checkedBefore = await tree.locator('.ant-tree-checkbox-checked').count();
      expect(checkedBefore).toBeGreaterThanOrEqual(before.length > 0 ? 1 : 0);
      // check 系统管理 › 部门管理 (with its buttons) as well
      const system = tree.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: /^系统管理$/ }) });
      if ((await tree.locator('.ant-tree-title', { hasText: /^部门管理$/ }).count()) === 0) await system.locator('.ant-tree-switcher').click();
      const dept = tree.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: /^部门管理$/ }) });
      await dept.locator('.ant-tree-checkbox').click();
      await dept.locator('.ant-tree-checkbox-checked').waitFor();
      await shot(page, 'f-topmenu-dialog');
      await page.getByTestId('topmenu-grant-submit').click();
      await toast(page, '配置成功');
      await tree.waitFor({ state: 'hidden' });
      const after = (await api<{ menu: string[] }>(b.baseUrl, adminToken, `${SYS}/menu/top-tree-keys?topMenuIds=${top.id}`)).data.menu;
      const menus = await grantTree(adminToken);
      const deptId = menus.find((m) => m.title === '部门管理' && m.category === 1)!.id;
      expect(after).toContain(deptId);
      for (const id of before) expect(after).toContain(id);
    } finally {
      await api(b.baseUrl, adminToken, `${SYS}/topmenu/grant`, { method: 'POST', json: { topMenuIds: top.id, menuIds: before.join(',') } });
    }
  });

  it('the menu screen is the generic tree page: nested rows, add child with the type, button and new-window selects', async () => {
    const page = b.page;
    await openScreen(page, 'system', 'menu', '/system/menu');
    const system = rows(page).filter({ has: page.locator('td', { hasText: /^系统管理$/ }) });
    await system.first().waitFor();
    await shot(page, 'g-menu-list');
    await clickRowAction(system.first(), 'resource-row-add-child');
    const dialog = dialogOf(page, 'resource-form');
    await dialog.waitFor();
    for (const field of ['category', 'action', 'isOpen', 'parentId']) await dialog.locator(`#resource_${field}`).waitFor({ state: 'attached' });
    await expect(dialog.locator('.ant-form-item', { has: page.locator('#resource_parentId') }).innerText()).resolves.toContain('系统管理');
    await dialog.locator('.ant-select', { has: page.locator('#resource_category') }).click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await options.first().waitFor();
    expect(await options.allInnerTexts()).toEqual(expect.arrayContaining(['菜单', '按钮']));
    await page.keyboard.press('Escape');
    await shot(page, 'g-menu-add-child');
    await shown(page, 'resource-form-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
