import type { Frame, Locator, Page } from 'playwright-core';

/** Waits for a condition in the page, failing with a readable message. */
export async function waitFor(page: Page, what: string, fn: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn().catch(() => false)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out after ${ms} ms waiting for: ${what}`);
}

/**
 * Signs in from a fresh /login entry and waits for the home page. (Going to /login from /login would
 * reload it and keep the page the route guard remembered there, and sign-in would return to that page.)
 */
export async function signIn(page: Page, baseUrl: string, tenant = '000000', user = 'admin', password = 'admin'): Promise<void> {
  const visited: string[] = [];
  const onNavigated = (frame: Frame) => { if (frame === page.mainFrame()) visited.push(frame.url()); };
  page.on('framenavigated', onNavigated);
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  try {
    await page.waitForURL('**/wel/index', { timeout: 15_000 });
  } catch (e) {
    const shown = await page.locator('.ant-message-notice, .ant-form-item-explain-error').allInnerTexts().catch(() => []);
    throw new Error(`sign-in as ${tenant}/${user} did not reach /wel/index: went ${visited.join(' → ')}, showing ${JSON.stringify(shown)}`, { cause: e });
  } finally {
    page.off('framenavigated', onNavigated);
  }
  await page.getByTestId('side-menu').waitFor();
}

/**
 * Forgets the session in this browser. It is done where the console is not running: a running console
 * may write its copy back (a token refresh, an identity switch) before the next navigation.
 */
export async function signOutLocally(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/version.json`);
  await page.evaluate(() => {
    localStorage.removeItem('saber-session');
    sessionStorage.clear();
  });
}

/** The text of the newest antd message toast. */
export async function toast(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 10_000 });
}

/** Rows of the resource table (not the header or the "no data" row). */
export function tableRows(page: Page) {
  return page.getByTestId('resource-table').locator('tbody tr.ant-table-row');
}

export async function openMenu(page: Page, ...codes: string[]): Promise<void> {
  for (const [i, code] of codes.entries()) {
    const item = page.getByTestId(`menu-${code}`);
    // a group already open (the current page's branch opens by itself) would close on a click
    const open = i < codes.length - 1 && await item.evaluate((el) => el.closest('.ant-menu-submenu-title')?.getAttribute('aria-expanded') === 'true');
    if (!open) await item.click();
  }
}

/**
 * Confirms the open confirmation dialog. A click that lands while the dialog is still zooming in can be
 * lost, so wait for its opening animation to end first, then for the dialog to close.
 */
export async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await waitFor(page, 'the dialog to finish opening', async () =>
    (await page.locator('.ant-modal-confirm.ant-zoom-appear, .ant-modal-confirm.ant-zoom-enter').count()) === 0);
  await page.getByTestId('confirm-ok').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Chooses one of the eleven themes in the theme dialog and closes it once the page wears it. */
export async function chooseTheme(page: Page, name: string): Promise<void> {
  await page.getByTestId('theme-button').click();
  await page.getByTestId('theme-options').waitFor();
  await page.getByTestId(`theme-option-${name}`).click();
  await waitFor(page, `theme ${name} on <html>`, async () =>
    (await page.evaluate(() => document.documentElement.dataset.theme)) === name);
  await waitFor(page, `theme ${name} checked in the dialog`, async () =>
    (await page.getByTestId(`theme-option-${name}`).getAttribute('aria-checked')) === 'true');
  await page.keyboard.press('Escape');
  await page.getByTestId('theme-options').waitFor({ state: 'hidden' });
}

/** Picks an option of a resource form's select field (`#resource_<field>`) by its text. */
export async function pickOption(page: Page, field: string, option: string | RegExp): Promise<void> {
  await page.locator(`#resource_${field}`).click({ force: true });
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
}

/** Submits the open resource form and waits for its success message and for the dialog to close. */
export async function submitResourceForm(page: Page, message = '新增成功'): Promise<void> {
  await page.getByTestId('resource-form-submit').click();
  await toast(page, message);
  await page.locator('.ant-modal').waitFor({ state: 'hidden' });
}

/**
 * Clicks a row's action button (by test id), inline or under the row's 更多 menu (a row with more than three
 * buttons shows the first ones and 更多).
 */
export async function clickRowAction(row: Locator, id: string): Promise<void> {
  const inline = row.getByTestId(id);
  const more = row.getByTestId('resource-row-more');
  // the row (and its buttons) may still be on its way
  await inline.or(more).first().waitFor();
  if ((await inline.count()) > 0) return inline.first().click();
  await more.click();
  await row.page().locator('.resource-row-more-menu').filter({ visible: true }).getByTestId(id).click();
}

/** The test ids of a row's action buttons, inline and under its 更多 menu (opened, read and closed again). */
export async function rowActionIds(row: Locator): Promise<string[]> {
  const page = row.page();
  const idsIn = (scope: Locator) => scope.locator('[data-testid^="resource-row-"], [data-testid*="-row-"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
  const ids = (await idsIn(row)).filter((id) => id !== 'resource-row-more');
  const more = row.getByTestId('resource-row-more');
  if ((await more.count()) === 0) return ids;
  await more.click();
  const menu = page.locator('.resource-row-more-menu').filter({ visible: true });
  await menu.waitFor();
  ids.push(...await idsIn(menu));
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return ids;
}
