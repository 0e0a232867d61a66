import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, toast, waitFor, clickRowAction } from '../flows.js';

/** The generic list page at real sizes, its wording in both languages and its keyboard use (on 参数管理). */

const b = useBrowser();
const PARAM = '/api/blade-system/param';
/** a parameter name of 56 characters */
const LONG_NAME = 'lp-long-配置项名称很长很长很长的参数名称-upload-size-limit-of-my-gateway';
let token = '';
const created: string[] = [];
/** list calls the page made, as their queries */
const listCalls: URLSearchParams[] = [];

async function addParams(prefix: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(3, '0');
    const res = await api<unknown>(b.baseUrl, token, `${PARAM}/submit`, {
      method: 'POST',
      json: { paramName: `${prefix}-${n}`, paramKey: `${prefix}.${n}`, paramValue: `value ${n}` },
    });
    if (res.code !== 200) throw new Error(`${prefix}-${n} was not added: ${res.msg}`);
  }
}

/** The parameters page (other tabs' pages stay in the document, hidden). */
const list = () => b.page.locator('[data-testid="kept-page"][data-key="/system/param"]');
const tableRows = (_page: unknown) => list().locator('tbody tr.ant-table-row');

async function search(name: string): Promise<void> {
  await list().locator('#search_paramName').fill(name);
  await list().getByTestId('resource-search-submit').click();
}

const pager = () => list().getByTestId('resource-pagination');
const activePage = async () => (await pager().locator('.ant-pagination-item-active').innerText()).trim();
const screenshot = (name: string) => b.page.screenshot({ path: join(ARTIFACTS, `list-page-${name}.png`) });

async function setPageSize(size: number): Promise<void> {
  await pager().locator('.ant-pagination-options .ant-select').click();
  await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: String(size) }).first().click();
}

async function setLang(lang: 'zh' | 'en'): Promise<void> {
  await b.page.getByTestId('user-menu').click();
  await b.page.getByTestId(`lang-${lang}`).click();
}

/** Whether the element's box lies inside the window (from top to bottom; `across`: also side to side). */
async function inViewport(selector: string, across = false): Promise<boolean> {
  return list().locator(selector).first().evaluate((el, across) => {
    const r = el.getBoundingClientRect();
    const vertical = r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    return vertical && (!across || (r.left >= 0 && r.right <= window.innerWidth));
  }, across);
}

const documentScrolls = () => b.page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight);

beforeAll(async () => {
  token = (await apiToken(b.baseUrl, '000000', 'admin', 'admin')) ?? '';
  expect(token).not.toBe('');
  await addParams('lp-row', 205);
  await addParams('lp-del', 11);
  const long = await api<unknown>(b.baseUrl, token, `${PARAM}/submit`, {
    method: 'POST',
    json: { paramName: LONG_NAME, paramKey: 'lp-long.key', paramValue: 'x' },
  });
  expect(long.code).toBe(200);
  b.page.on('request', (r: Request) => {
    if (r.url().includes(`${PARAM}/list`)) listCalls.push(new URL(r.url()).searchParams);
  });
  await signIn(b.page, b.baseUrl);
  await openMenu(b.page, 'system', 'param');
  await b.page.waitForURL('**/system/param');
  await list().getByTestId('resource-page').waitFor();
});

afterAll(async () => {
  // leave the parameters as they were for the other test files
  const page = await api<{ records: { id: string; paramName: string }[] }>(b.baseUrl, token, `${PARAM}/list?paramName=lp-&size=500`);
  const ids = page.data.records.filter((r) => r.paramName.startsWith('lp-')).map((r) => r.id);
  created.push(...ids);
  if (ids.length) await api(b.baseUrl, token, `${PARAM}/remove?ids=${ids.join(',')}`, { method: 'POST' });
});

describe('the list page at real sizes', () => {
  it('reloads the shown page after a delete and steps back when the last page became empty', async () => {
    await search('lp-del');
    await waitFor(b.page, 'ten rows of eleven', async () => (await tableRows(b.page).count()) === 10);
    await pager().locator('.ant-pagination-item-2').click();
    await waitFor(b.page, 'page 2 with one row', async () => (await activePage()) === '2' && (await tableRows(b.page).count()) === 1);
    const before = listCalls.length;
    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    await confirm(b.page);
    await toast(b.page, '删除成功');
    await waitFor(b.page, 'page 1 with ten rows', async () => (await activePage()) === '1' && (await tableRows(b.page).count()) === 10);
    // it asked for page 2 again, found it empty and asked for page 1
    const after = listCalls.slice(before).map((q) => q.get('current'));
    expect(after).toContain('2');
    expect(after.at(-1)).toBe('1');
    expect(await list().locator('.ant-table-placeholder').count()).toBe(0);
    await screenshot('after-last-page-delete');
  });

  it('keeps the table header and the pager in view with 200 rows: the body scrolls, not the document', async () => {
    await search('lp-row');
    await waitFor(b.page, 'ten rows', async () => (await tableRows(b.page).count()) === 10);
    await setPageSize(200);
    await waitFor(b.page, '200 rows', async () => (await tableRows(b.page).count()) === 200);
    await waitFor(b.page, 'the page fits the window', async () => !(await documentScrolls()));
    expect(await inViewport('.ant-table-thead')).toBe(true);
    expect(await inViewport('[data-testid="resource-pagination"]', true)).toBe(true);
    // the body scrolls its 200 rows
    const body = list().locator('.ant-table-body');
    expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight + 1000)).toBe(true);
    await body.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    expect(await inViewport('.ant-table-thead')).toBe(true);
    expect(await b.page.evaluate(() => window.scrollY)).toBe(0);
    await screenshot('200-rows');
  });

  it('sizes the table to a smaller window, also while the page was in a hidden tab', async () => {
    await openMenu(b.page, 'desk', 'notice');
    await b.page.waitForURL('**/desk/notice');
    await b.page.setViewportSize({ width: 1280, height: 720 });
    try {
      // the tab bar lays itself out again for the new width: a click landing meanwhile may miss the tab, so click
      // until the page is shown (a click on the shown tab changes nothing)
      const paramTab = b.page.getByTestId('tab').filter({ hasText: '参数管理' });
      await waitFor(b.page, 'the 参数管理 tab shown', async () => {
        if (new URL(b.page.url()).pathname !== '/system/param') await paramTab.click();
        return new URL(b.page.url()).pathname === '/system/param';
      });
      await waitFor(b.page, 'the page fits the smaller window', async () =>
        !(await documentScrolls()) && (await inViewport('[data-testid="resource-pagination"]', true)));
      expect(await inViewport('.ant-table-thead')).toBe(true);
      // the columns still fit side by side
      expect(await list().locator('.ant-table-body').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await screenshot('200-rows-1280x720');
    } finally {
      await b.page.setViewportSize({ width: 1440, height: 900 });
    }
    await waitFor(b.page, 'the page fits the window again', async () =>
      !(await documentScrolls()) && (await list().locator('.ant-table-body').evaluate((el) => el.getBoundingClientRect().bottom > 700)));
  });

  it('jumps to a page typed into 前往 [ ] 页', async () => {
    await setPageSize(10);
    await waitFor(b.page, 'ten rows', async () => (await tableRows(b.page).count()) === 10);
    const jumper = pager().locator('.ant-pagination-options-quick-jumper');
    expect((await jumper.innerText()).replace(/\s+/g, '')).toBe('前往页');
    await jumper.locator('input').fill('7');
    await jumper.locator('input').press('Enter');
    await waitFor(b.page, 'page 7', async () => (await activePage()) === '7');
    await waitFor(b.page, 'rows of page 7', async () => listCalls.at(-1)?.get('current') === '7' && (await tableRows(b.page).count()) === 10);
    await screenshot('jump-to-page');
  });

  it('cuts a 56-character name with an ellipsis, shows it whole on hover, and keeps the columns in view', async () => {
    expect([...LONG_NAME].length).toBe(56);
    await search('lp-long');
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    const cell = tableRows(b.page).first().locator('.resource-cell-text').first();
    expect(await cell.innerText()).toBe(LONG_NAME);
    expect(await cell.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // no horizontal scrolling: every column is in view
    const body = list().locator('.ant-table-body');
    expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await inViewport('.ant-table-thead th:last-child', true)).toBe(true);
    await cell.hover();
    const tip = b.page.locator('.ant-tooltip:not(.ant-tooltip-hidden)', { hasText: LONG_NAME });
    await tip.waitFor();
    await screenshot('long-name-hover');
    await b.page.mouse.move(0, 0);
  });

  it('keeps the pager with a total of 0 when a search finds nothing', async () => {
    await search('lp-nothing-matches-this');
    await waitFor(b.page, 'no rows', async () => (await tableRows(b.page).count()) === 0);
    await pager().waitFor();
    expect(await pager().locator('.ant-pagination-total-text').innerText()).toBe('总共 0 条');
    expect(await inViewport('[data-testid="resource-pagination"]', true)).toBe(true);
    await screenshot('empty-search');
  });
});

describe('wording and keyboard of the list page', () => {
  it('titles the delete confirmation 确认删除, not 提示', async () => {
    await search('lp-row-001');
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    const dialog = b.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').innerText()).toBe('确认删除');
    await screenshot('delete-confirm-zh');
    await b.page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('reaches the toolbar\'s buttons and the sortable headers with Tab, and uses them with Enter and Space', async () => {
    await search('lp-row');
    await waitFor(b.page, 'ten rows', async () => (await tableRows(b.page).count()) === 10);
    // the search form's 展开 toggle is reached after 查询 and works with Enter
    await list().getByTestId('resource-search-submit').focus();
    await b.page.keyboard.press('Tab');
    const toggle = list().getByTestId('resource-search-toggle');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await b.page.keyboard.press('Enter');
    await waitFor(b.page, 'the search form expanded', async () => (await toggle.getAttribute('aria-expanded')) === 'true');
    await b.page.keyboard.press('Space');
    await waitFor(b.page, 'the search form collapsed', async () => (await toggle.getAttribute('aria-expanded')) === 'false');

    await list().getByTestId('resource-add').focus();
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      await b.page.keyboard.press('Tab');
      order.push(await b.page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.dataset.testid ?? (el?.tagName === 'TH' ? `th:${el.getAttribute('aria-label')}` : (el?.tagName ?? ''));
      }));
    }
    expect(order.slice(0, 4)).toEqual(['resource-batch-delete', 'resource-reload', 'resource-density', 'resource-settings']);
    expect(order, order.join(', ')).toContain('th:参数名称');
    // labelled for screen readers in the UI language
    expect(await list().getByTestId('resource-reload').getAttribute('aria-label')).toBe('刷新');
    expect(await list().getByTestId('resource-density').getAttribute('aria-label')).toBe('表格密度');
    expect(await list().getByTestId('resource-settings').getAttribute('aria-label')).toBe('列设置');
    expect(await list().locator('thead .ant-checkbox-input').getAttribute('aria-label')).toBe('全选当前页');
    expect(await tableRows(b.page).first().locator('.ant-checkbox-input').getAttribute('aria-label')).toBe('选择此行');

    // refresh with Enter
    const before = listCalls.length;
    await list().getByTestId('resource-reload').focus();
    await b.page.keyboard.press('Enter');
    await waitFor(b.page, 'a reload', async () => listCalls.length > before);

    // density with Space: a menu in the console's words
    await list().getByTestId('resource-density').focus();
    await b.page.keyboard.press('Space');
    const density = b.page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item');
    await waitFor(b.page, 'the density menu', async () => (await density.count()) === 3);
    expect(await density.allInnerTexts()).toEqual(['宽松', '标准', '紧凑']);
    await b.page.keyboard.press('Escape');

    // column settings with Enter
    await list().getByTestId('resource-settings').focus();
    await b.page.keyboard.press('Enter');
    const settings = b.page.locator('.ant-popover:not(.ant-popover-hidden)');
    await settings.waitFor();
    expect(await settings.innerText()).toContain('显示全部列');
    expect(await settings.innerText()).toContain('未固定');
    // focus moved into the popup; Escape closes it and returns to the button
    await waitFor(b.page, 'focus in the column settings', () =>
      b.page.evaluate(() => document.activeElement?.closest('.ant-pro-table-column-setting-overlay') != null));
    await screenshot('column-settings-zh');
    await b.page.keyboard.press('Escape');
    await settings.waitFor({ state: 'hidden' });
    expect(await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('resource-settings');

    // a sortable header: visible focus ring, sorts with Space and Enter
    const header = list().locator('th.ant-table-column-has-sorters[aria-label="参数名称"]');
    await list().getByTestId('resource-settings').focus();
    for (let i = 0; i < 10 && !(await header.evaluate((el) => el === document.activeElement)); i++) await b.page.keyboard.press('Tab');
    expect(await header.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await header.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await screenshot('header-focus');
    await b.page.keyboard.press('Space');
    await waitFor(b.page, 'sorted ascending', async () => listCalls.at(-1)?.get('ascs') === 'paramName');
    await b.page.keyboard.press('Enter');
    await waitFor(b.page, 'sorted descending', async () => listCalls.at(-1)?.get('descs') === 'paramName');
    expect(await b.page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('speaks English in English: toolbar labels, density, column settings, pager and confirmation', async () => {
    await setLang('en');
    await waitFor(b.page, 'English labels', async () => (await list().getByTestId('resource-reload').getAttribute('aria-label')) === 'Refresh');
    expect(await list().getByTestId('resource-density').getAttribute('aria-label')).toBe('Row density');
    expect(await list().getByTestId('resource-settings').getAttribute('aria-label')).toBe('Columns');
    expect(await list().locator('thead .ant-checkbox-input').getAttribute('aria-label')).toBe('Select all rows on this page');
    expect((await pager().locator('.ant-pagination-options-quick-jumper').innerText()).replace(/\s+/g, '')).toBe('Gotopage');

    await list().getByTestId('resource-density').click();
    const density = b.page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item');
    await waitFor(b.page, 'the density menu', async () => (await density.count()) === 3);
    expect(await density.allInnerTexts()).toEqual(['Comfortable', 'Standard', 'Compact']);
    await b.page.keyboard.press('Escape');

    await list().getByTestId('resource-settings').click();
    const settings = b.page.locator('.ant-popover:not(.ant-popover-hidden)');
    await settings.waitFor();
    const text = await settings.innerText();
    expect(text).toContain('Show all columns');
    expect(text).toContain('Not pinned');
    expect(text).toContain('Pinned to the right');
    expect(text).not.toMatch(/Not Fixed|Column Display|Middle/);
    await screenshot('column-settings-en');
    await list().getByTestId('resource-settings').click();
    await settings.waitFor({ state: 'hidden' });

    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    const dialog = b.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').innerText()).toBe('Confirm deletion');
    await b.page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });

    await search('lp-nothing-matches-this');
    await waitFor(b.page, 'no rows', async () => (await tableRows(b.page).count()) === 0);
    expect(await pager().locator('.ant-pagination-total-text').innerText()).toBe('0 items');
    await screenshot('empty-search-en');
    await setLang('zh');
  });
});
