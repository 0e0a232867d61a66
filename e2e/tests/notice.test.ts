import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();

beforeAll(async () => {
  // the demo tenant's administrator: notices only
  await signIn(b.page, b.baseUrl, '541742', 'admin', 'admin');
});

describe('notices in a tenant', () => {
  it('shows only the menus granted to the tenant\'s role', async () => {
    await b.page.getByTestId('menu-desk').waitFor();
    // the tenant's administrator holds the screens of the tenant's own data, never the platform's
    await b.page.getByTestId('menu-system').click();
    await b.page.getByTestId('menu-user').waitFor();
    expect(await b.page.getByTestId('menu-param').count()).toBe(0);
    expect(await b.page.getByTestId('menu-tenant').count()).toBe(0);
    await b.page.goto(`${b.baseUrl}/system/param`);
    await waitFor(b.page, 'no parameter page', async () =>
      (await b.page.getByTestId('error-page-404').count()) + (await b.page.getByTestId('error-page-403').count()) > 0);
  });

  it('adds a notice with a category from the dictionary, a release time and formatted content', async () => {
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await openMenu(b.page, 'desk', 'notice');
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_title').fill('固件 3.2 升级通知');
    await b.page.locator('#resource_category').click();
    await b.page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: '发布通知' }).click();
    await b.page.locator('#resource_releaseTime').click();
    await b.page.locator('#resource_releaseTime').fill('2026-12-01 09:30:00');
    await b.page.keyboard.press('Enter');
    const editor = b.page.getByTestId('richtext-content');
    await editor.click();
    await b.page.keyboard.type('周六晚间 ');
    await b.page.getByTestId('richtext-bold').click();
    await b.page.keyboard.type('请勿断电');
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新增成功');
    await waitFor(b.page, 'the row', async () => (await tableRows(b.page).first().innerText()).includes('固件 3.2 升级通知'));
    const row = await tableRows(b.page).first().innerText();
    expect(row).toContain('发布通知');
    expect(row).toContain('2026-12-01 09:30:00');
  });

  it('shows the notice with its formatted content in the detail view and on the home page', async () => {
    await clickRowAction(tableRows(b.page).first(), 'resource-row-view');
    const detail = b.page.getByTestId('resource-detail');
    await waitFor(b.page, 'bold content', async () => (await detail.locator('b, strong').first().innerText()) === '请勿断电');
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('menu-home').click();
    await b.page.getByTestId('home-notice').first().waitFor();
    expect(await b.page.getByTestId('home-notices').innerText()).toContain('固件 3.2 升级通知');
  });

  it('filters by category and deletes', async () => {
    await openMenu(b.page, 'notice');
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.locator('#search_category').click();
    await b.page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: '事务通知' }).click();
    await b.page.getByTestId('resource-search-submit').click();
    await waitFor(b.page, 'no rows', async () => (await tableRows(b.page).count()) === 0);
    await b.page.getByTestId('resource-search-reset').click();
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    await confirm(b.page);
    await toast(b.page, '删除成功');
    await waitFor(b.page, 'empty', async () => (await tableRows(b.page).count()) === 0);
  });
});
