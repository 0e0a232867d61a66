import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { ARTIFACTS, launchSecondBrowser, useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();
const SYS = '/api/blade-system';
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `users-roles-${name}.png`) });

interface Rec { id: string; [k: string]: unknown }
interface MenuRow { id: string; code: string; children?: MenuRow[] }

let admin: string;
/** a second browser: another user signed in beside the administrator */
let other: Browser;

async function call<T>(path: string, json?: unknown): Promise<T> {
  const res = await api<T>(b.baseUrl, admin, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

async function menuIds(...codes: string[]): Promise<string[]> {
  const flat = (rows: MenuRow[]): MenuRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
  const all = flat(await call<MenuRow[]>(`${SYS}/menu/list`));
  return codes.map((c) => {
    const row = all.find((m) => m.code === c);
    if (!row) throw new Error(`no menu ${c}`);
    return row.id;
  });
}

/** Picks a node of an open TreeSelect by typing its title and clicking it. */
async function pickTree(page: Page, fieldId: string, title: string): Promise<void> {
  const input = page.locator(`#${fieldId}`);
  await input.click();
  await input.fill(title);
  const node = page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper[title="${title}"]`);
  await node.click();
}

/** Opens a menu page, opening its parent submenu only when it is closed. */
async function goMenu(page: Page, parent: string, leaf: string): Promise<void> {
  const item = page.getByTestId(`menu-${leaf}`);
  if (!(await item.isVisible())) await openMenu(page, parent);
  await item.click();
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  other = await launchSecondBrowser();
  await signIn(b.page, b.baseUrl);
});

afterAll(async () => {
  await other?.close();
});

async function otherPage(): Promise<Page> {
  const context = await other.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  return context.newPage();
}

describe('users screen', () => {
  it('creates a user in a child department with two roles; the parent department lists it', async () => {
    const parent = await call<Rec>(`${SYS}/dept/submit`, { deptName: 'E2E华东区', fullName: 'E2E华东区', deptCategory: 2, sort: 30 });
    await call<Rec>(`${SYS}/dept/submit`, { deptName: 'E2E杭州分部', fullName: 'E2E杭州分部', parentId: parent.id, deptCategory: 3, sort: 1 });
    await call<Rec>(`${SYS}/role/submit`, { roleName: 'E2E审计员', roleAlias: 'e2e_auditor', sort: 30 });

    await goMenu(b.page, 'system', 'user');
    await b.page.waitForURL('**/system/user');
    await b.page.getByTestId('user-page').waitFor();
    await b.page.locator('[data-testid="dept-node"]', { hasText: 'E2E华东区' }).waitFor();

    await b.page.getByTestId('resource-add').click();
    await b.page.getByTestId('resource-form').waitFor();
    await b.page.locator('#resource_account').fill('e2e_hz01');
    await b.page.locator('#resource_name').fill('小杭');
    await b.page.locator('#resource_realName').fill('杭小州');
    await pickTree(b.page, 'resource_deptId', 'E2E杭州分部');
    await pickTree(b.page, 'resource_roleId', '用户');
    await pickTree(b.page, 'resource_roleId', 'E2E审计员');
    await b.page.keyboard.press('Escape');
    await b.page.locator('#resource_phone').fill('1380013800');
    await b.page.getByText('手机号码须是 11 位手机号码 (1 开头)').waitFor();
    await b.page.locator('#resource_phone').fill('13800138000');
    await shot(b.page, 'user-form');
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新增成功');

    await b.page.locator('[data-testid="dept-node"]', { hasText: 'E2E华东区' }).click();
    await waitFor(b.page, 'the parent department lists the new user alone', async () => {
      const rows = await tableRows(b.page).allInnerTexts();
      return rows.length === 1 && rows[0]!.includes('e2e_hz01') && rows[0]!.includes('E2E杭州分部');
    });
    const row = (await tableRows(b.page).first().innerText());
    expect(row).toContain('用户');
    expect(row).toContain('E2E审计员');
    await shot(b.page, 'dept-filter');
    await b.page.getByTestId('dept-all').click();
    await waitFor(b.page, 'every user again', async () => (await tableRows(b.page).count()) > 1);
  });

  it('opens the platform dialog of a row and saves a JSON extension', async () => {
    await b.page.locator('#search_account').fill('e2e_hz01');
    await b.page.getByTestId('resource-search-submit').click();
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    await clickRowAction(tableRows(b.page).first(), 'user-row-platform');
    await b.page.getByTestId('user-platform-form').waitFor();
    // the form fills in from platform-detail: type after that
    await waitFor(b.page, 'the platform detail loaded', () => b.page.getByTestId('user-platform-submit').isEnabled());
    await b.page.getByTestId('user-platform-ext').fill('not json');
    await b.page.getByTestId('user-platform-submit').click();
    await b.page.getByText('用户拓展须为 JSON 对象').waitFor();
    await b.page.getByTestId('user-platform-ext').fill('{"app":"lock"}');
    await b.page.getByTestId('user-platform-submit').click();
    await toast(b.page, '平台配置成功');
    const users = await call<{ records: Rec[] }>(`${SYS}/user/list?account_equal=e2e_hz01`);
    const detail = await call<Rec>(`${SYS}/user/platform-detail?id=${users.records[0]!.id}`);
    expect(detail.userExt).toBe('{"app":"lock"}');
  });
});

describe('users screen: account tools', () => {
  it('reviews sign-ups (注册审核 shows status 3 only; 通过) and resets a password', async () => {
    const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
    const roles = await call<Rec[]>(`${SYS}/role/list`);
    const userRole = roles.find((r) => r.roleAlias === 'user')!;
    await call(`${SYS}/user/submit`, { account: 'e2e_pending', name: '待审', realName: '待审', deptId: depts[0]!.id, roleId: userRole.id, status: 3 });
    const page = b.page.getByTestId('user-page');
    await page.locator('#search_account').fill('');
    await page.getByTestId('resource-search-submit').click();
    await page.getByTestId('user-audit').click();
    await page.getByTestId('user-audit-showing').waitFor();
    // other files' sign-ups (registration tests) may be awaiting approval too: act on this one's row only
    await waitFor(b.page, 'the sign-up awaiting approval', async () =>
      (await tableRows(b.page).allInnerTexts()).some((r) => r.includes('e2e_pending')));
    await tableRows(b.page).filter({ hasText: 'e2e_pending' }).locator('.ant-checkbox-input').check();
    await shot(b.page, 'audit');
    await page.getByTestId('user-audit-pass').click();
    await confirm(b.page);
    await toast(b.page, '审核已通过');
    await waitFor(b.page, 'the sign-up approved', async () =>
      !(await tableRows(b.page).allInnerTexts()).some((r) => r.includes('e2e_pending')));
    await page.getByTestId('user-audit-leave').click();
    await page.getByTestId('user-audit').waitFor();

    await page.locator('#search_account').fill('e2e_pending');
    await page.getByTestId('resource-search-submit').click();
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    await tableRows(b.page).first().locator('.ant-checkbox-input').check();
    await page.getByTestId('user-reset').click();
    await confirm(b.page);
    await toast(b.page, '用户下次登录时须先修改密码');
    expect(await apiToken(b.baseUrl, '000000', 'e2e_pending', '123456')).toBeTruthy();
  });
});

describe('roles screen', () => {
  it('a grant that takes a menu from a role shrinks a signed-in user\'s sidebar after a reload', async () => {
    const role = await call<Rec>(`${SYS}/role/submit`, { roleName: 'E2E通知员', roleAlias: 'e2e_notice', sort: 31 });
    const [desk, notice, noticeView] = await menuIds('desk', 'notice', 'notice_view');
    await call(`${SYS}/role/grant`, { roleIds: role.id, menuIds: [desk, notice, noticeView].join(',') });
    const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
    await call(`${SYS}/user/submit`, { account: 'e2e_noticer', name: '通知员', realName: '通知员', deptId: depts[0]!.id, roleId: role.id, password: md5('First-pass-1') });
    // an administrator set that password: the user changes it first (the forced change has its own test)
    const userToken = (await apiToken(b.baseUrl, '000000', 'e2e_noticer', 'First-pass-1'))!;
    const changed = await api(b.baseUrl, userToken, `${SYS}/user/update-password`, {
      method: 'POST', json: { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') },
    });
    expect(changed.success).toBe(true);

    const user = await otherPage();
    await signIn(user, b.baseUrl, '000000', 'e2e_noticer', 'Second-pass-2');
    await goMenu(user, 'desk', 'notice');
    await user.waitForURL('**/desk/notice');
    await user.getByTestId('menu-home').click();
    await user.waitForURL('**/wel/index');

    await goMenu(b.page, 'authority', 'role');
    await b.page.waitForURL('**/authority/role');
    const row = tableRows(b.page).filter({ hasText: 'E2E通知员' });
    await row.locator('.ant-checkbox-input').check();
    await b.page.getByTestId('role-grant').click();
    await b.page.getByTestId('role-grant-dialog').waitFor();
    const noticeNode = b.page.locator('.ant-tree-treenode', { has: b.page.locator(`[data-testid="role-grant-menu"][data-id="${notice}"]`) });
    await waitFor(b.page, 'the notice menu checked', async () => (await noticeNode.locator('.ant-tree-checkbox-checked').count()) === 1);
    await noticeNode.locator('.ant-tree-checkbox').click();
    await waitFor(b.page, 'the notice menu unchecked', async () => (await noticeNode.locator('.ant-tree-checkbox-checked').count()) === 0);
    await b.page.getByTestId('role-grant-tab-data').click();
    await b.page.getByTestId('role-grant-tab-menu').click();
    await shot(b.page, 'grant-dialog');
    await b.page.getByTestId('role-grant-submit').click();
    await toast(b.page, '权限设置成功');
    await b.page.getByTestId('role-grant-dialog').waitFor({ state: 'hidden' });
    expect((await call<{ menu: string[] }>(`${SYS}/menu/role-tree-keys?roleIds=${role.id}`)).menu).toEqual([desk]);

    await user.reload();
    await user.getByTestId('side-menu').waitFor();
    const storedCodes = () => user.evaluate(() => {
      type M = { code: string; children?: M[] };
      const flat = (ms: M[]): string[] => ms.flatMap((m) => [m.code, ...flat(m.children ?? [])]);
      return flat(JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.menu ?? []);
    });
    await waitFor(user, 'the stored menu without notice', async () => {
      const codes = await storedCodes();
      return codes.includes('desk') && !codes.includes('notice');
    }).catch(async (e) => { throw new Error(`${String(e)}; stored menu: ${JSON.stringify(await storedCodes())}`); });
    await user.getByTestId('menu-desk').waitFor();
    await waitFor(user, 'the notice menu gone from the sidebar', async () => (await user.getByTestId('menu-notice').count()) === 0);
    await shot(user, 'sidebar-after-grant');
    // and the page itself is no longer theirs
    await user.goto(`${b.baseUrl}/desk/notice`);
    await user.waitForURL((u) => u.pathname === '/404');
    await user.context().close();
  });

  it('shows the server\'s refusal in the dialog: the administrator role keeps the role screen', async () => {
    const row = tableRows(b.page).filter({ hasText: '超级管理员' });
    await tableRows(b.page).filter({ hasText: 'E2E通知员' }).locator('.ant-checkbox-input').uncheck();
    await row.locator('.ant-checkbox-input').check();
    await b.page.getByTestId('role-grant').click();
    await b.page.getByTestId('role-grant-dialog').waitFor();
    const [role] = await menuIds('role');
    const roleNode = b.page.locator('.ant-tree-treenode', { has: b.page.locator(`[data-testid="role-grant-menu"][data-id="${role}"]`) });
    await waitFor(b.page, 'the role menu checked', async () => (await roleNode.locator('.ant-tree-checkbox-checked').count()) === 1);
    await roleNode.locator('.ant-tree-checkbox').click();
    await b.page.getByTestId('role-grant-submit').click();
    await b.page.getByTestId('role-grant-error').waitFor();
    await shot(b.page, 'grant-refused');
    await b.page.getByTestId('role-grant-cancel').click();
    await b.page.getByTestId('role-grant-dialog').waitFor({ state: 'hidden' });
  });
});

describe('data scopes screen', () => {
  it('opens and creates a scope', async () => {
    await goMenu(b.page, 'authority', 'data_scope');
    await b.page.waitForURL('**/authority/datascope');
    const scopes = b.page.locator('[data-testid="resource-page"][data-resource="data_scope"]');
    await scopes.waitFor();
    await scopes.getByTestId('resource-add').click();
    await b.page.getByTestId('resource-form').waitFor();
    await pickTree(b.page, 'resource_menuId', '通知公告');
    await b.page.locator('#resource_scopeName').fill('E2E本人通知');
    await b.page.locator('#resource_resourceCode').fill('e2e_notice_own');
    await b.page.locator('#resource_scopeType').click();
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '本人可见' }).click();
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新增成功');
    await waitFor(b.page, 'the new scope listed', async () => (await scopes.locator('tbody tr.ant-table-row', { hasText: 'E2E本人通知' }).count()) === 1);
    await shot(b.page, 'data-scope');
  });
});

describe('API scopes screen', () => {
  it('warns before a scope locks the signed-in user out, and saves it only once confirmed', async () => {
    await goMenu(b.page, 'authority', 'api_scope');
    await b.page.waitForURL('**/authority/apiscope');
    const scopes = b.page.locator('[data-testid="resource-page"][data-resource="api_scope"]');
    await scopes.waitFor();
    await scopes.getByTestId('resource-add').click();
    await b.page.getByTestId('resource-form').waitFor();
    await pickTree(b.page, 'resource_menuId', '通知公告');
    await b.page.locator('#resource_scopeName').fill('E2E接口权限详情');
    await b.page.locator('#resource_resourceCode').fill('e2e_api_scope_detail');
    await b.page.locator('#resource_scopePath').fill('/api/blade-system/api-scope/detail');
    await b.page.locator('#resource_scopeType').click();
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'GET' }).click();
    await b.page.getByTestId('resource-form-submit').click();
    const warning = b.page.locator('.ant-modal-confirm').filter({ hasText: '保存后您将无法调用' });
    await warning.waitFor();
    await expect(warning.innerText()).resolves.toContain('GET /api/blade-system/api-scope/detail');
    await shot(b.page, 'api-scope-lockout');
    // 取消: nothing saved, the form keeps what was typed
    await warning.getByTestId('confirm-cancel').click();
    await warning.waitFor({ state: 'hidden' });
    await expect(b.page.locator('#resource_scopeName').inputValue()).resolves.toBe('E2E接口权限详情');
    expect((await call<{ total: number }>(`${SYS}/api-scope/list?resourceCode=e2e_api_scope_detail`)).total).toBe(0);
    // 确定: saved
    await b.page.getByTestId('resource-form-submit').click();
    await warning.waitFor();
    await warning.getByTestId('confirm-ok').click();
    await toast(b.page, '新增成功');
    const saved = await call<{ total: number; records: Rec[] }>(`${SYS}/api-scope/list?resourceCode=e2e_api_scope_detail`);
    expect(saved.total).toBe(1);
    // the lock is lifted for the suites that follow
    await call(`${SYS}/api-scope/remove?ids=${String(saved.records[0]!.id)}`, {});
  });
});

describe('forced password change', () => {
  it('a user created without a password signs in with 123456 and must change it before working', async () => {
    const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
    const roles = await call<Rec[]>(`${SYS}/role/list`);
    const userRole = roles.find((r) => r.roleAlias === 'user')!;
    await call(`${SYS}/user/submit`, { account: 'e2e_first', name: '新人', realName: '新人', deptId: depts[0]!.id, roleId: userRole.id });

    const page = await otherPage();
    await signIn(page, b.baseUrl, '000000', 'e2e_first', '123456');
    const dialog = page.getByTestId('password-reset');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    await shot(page, 'forced-password');
    await page.getByTestId('pwd-old').fill('123456');
    await page.getByTestId('pwd-new').fill('Mine-2026');
    await page.getByTestId('pwd-confirm').fill('Mine-2026');
    await page.getByTestId('pwd-submit').click();
    await toast(page, '密码修改成功');
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('password-reset').count()).toBe(0);
    expect(await apiToken(b.baseUrl, '000000', 'e2e_first', 'Mine-2026')).toBeTruthy();
    await page.context().close();
  });
});
