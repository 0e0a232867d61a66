import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { openMenu, signIn, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
});

const parents = () => b.page.getByTestId('dict-parents');
const children = () => b.page.getByTestId('dict-children');
const rowsOf = (list: Locator) => list.getByTestId('resource-table').locator('tbody tr.ant-table-row');

async function pickSealed(value: '是' | '否') {
  await b.page.locator('#resource_isSealed').click({ force: true });
  await b.page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${value}"]`).click();
}

async function save() {
  await b.page.getByTestId('resource-form-submit').click();
  await toast(b.page, '新增成功');
  await b.page.locator('.ant-modal').waitFor({ state: 'hidden' });
}

/** Adds a dictionary and two items (one sealed) on the screen shown; the sealed item's edit and delete are disabled. */
async function mainFlow(code: string, name: string, shot: string) {
  await parents().getByTestId('resource-add').click();
  // the header's key is not asked for
  expect(await b.page.locator('#resource_dictKey').count()).toBe(0);
  await b.page.locator('#resource_code').fill(code);
  await b.page.locator('#resource_dictValue').fill(name);
  await save();

  await parents().locator('#search_code').fill(code);
  await parents().getByTestId('resource-search-submit').click();
  await waitFor(b.page, `one parent ${code}`, async () => (await rowsOf(parents()).count()) === 1 && (await rowsOf(parents()).first().innerText()).includes(code));
  await clickRowAction(rowsOf(parents()).first(), 'dict-row-items');
  await children().waitFor();

  // an item takes the dictionary's code
  await children().getByTestId('resource-add').click();
  await waitFor(b.page, 'the code preset', async () => (await b.page.locator('#resource_code').inputValue()) === code);
  expect(await b.page.locator('#resource_code').isDisabled()).toBe(true);
  await b.page.locator('#resource_dictKey').fill('1');
  await b.page.locator('#resource_dictValue').fill(`${name}一`);
  await save();

  await children().getByTestId('resource-add').click();
  await b.page.locator('#resource_dictKey').fill('2');
  await b.page.locator('#resource_dictValue').fill(`${name}封存`);
  await pickSealed('是');
  await save();

  await waitFor(b.page, 'two items', async () => (await rowsOf(children()).count()) === 2);
  const sealed = rowsOf(children()).filter({ hasText: `${name}封存` });
  await sealed.getByTestId('dict-sealed-tag').waitFor();
  expect(await sealed.getByTestId('resource-row-edit').isDisabled()).toBe(true);
  expect(await sealed.getByTestId('resource-row-delete').isDisabled()).toBe(true);
  const open = rowsOf(children()).filter({ hasText: `${name}一` });
  expect(await open.getByTestId('resource-row-edit').isDisabled()).toBe(false);
  await b.page.screenshot({ path: join(ARTIFACTS, shot), fullPage: true });

}

describe('dictionary screens', () => {
  it('system › dict: dictionaries beside their items; add a dictionary, its items, a sealed item that cannot be edited', async () => {
    await openMenu(b.page, 'system', 'dict');
    await b.page.waitForURL('**/system/dict');
    await b.page.locator('[data-testid="dict-screen"][data-layout="horizontal"]').waitFor();
    await b.page.getByTestId('dict-children-empty').waitFor();
    await mainFlow('e2e_colour', '颜色', 'dict-horizontal.png');
  });

  it('/dict-vertical/index: dictionaries above their items, the same flow', async () => {
    await b.page.goto(`${b.baseUrl}/dict-vertical/index`);
    await b.page.locator('[data-testid="dict-screen"][data-layout="vertical"]').waitFor();
    await mainFlow('e2e_size', '尺寸', 'dict-vertical.png');
  });

  it('/dict-horizontal/index and system › dictbiz open too', async () => {
    await b.page.goto(`${b.baseUrl}/dict-horizontal/index`);
    await b.page.locator('[data-testid="dict-screen"][data-layout="horizontal"]').waitFor();
    await waitFor(b.page, 'parents listed', async () => (await rowsOf(parents()).count()) > 0);
    await b.page.goto(`${b.baseUrl}/system/dictbiz`);
    await b.page.locator('[data-testid="dict-screen"][data-layout="vertical"]').waitFor();
    await mainFlow('e2e_biz', '业务', 'dictbiz-vertical.png');
  });
});
