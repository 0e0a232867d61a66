import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
  await openMenu(b.page, 'system', 'param');
  await b.page.waitForURL('**/system/param');
  await b.page.getByTestId('resource-page').waitFor();
});

async function fillForm(values: Record<string, string>) {
  for (const [field, value] of Object.entries(values)) {
    await b.page.locator(`#resource_${field}`).fill(value);
  }
}

async function addParam(name: string, key: string, value: string) {
  await b.page.getByTestId('resource-add').click();
  await fillForm({ paramName: name, paramKey: key, paramValue: value });
  await b.page.getByTestId('resource-form-submit').click();
  await toast(b.page, '新增成功');
  await b.page.locator('.ant-modal').waitFor({ state: 'hidden' });
}

async function search(name: string) {
  await b.page.locator('#search_paramName').fill(name);
  await b.page.getByTestId('resource-search-submit').click();
}

describe('parameters screen', () => {
  it('validates the form on blur with the spec\'s messages', async () => {
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_paramName').click();
    await b.page.locator('#resource_paramKey').click();
    await b.page.getByText('请输入参数名称').waitFor();
    await b.page.getByTestId('resource-form-submit').click();
    await b.page.getByText('请输入参数键名').waitFor();
    await b.page.getByText('请输入参数键值').waitFor();
    await b.page.getByTestId('resource-form-cancel').click();
    await b.page.locator('.ant-modal').waitFor({ state: 'hidden' });
  });

  it('adds parameters and finds them by search; blank search values are dropped', async () => {
    await addParam('上传大小上限', 'e2e.upload.max', '10MB');
    await addParam('会话超时', 'e2e.session.timeout', '3600');
    await addParam('会话并发', 'e2e.session.max', '3');
    await search('会话');
    await waitFor(b.page, 'two rows', async () => (await tableRows(b.page).count()) === 2);
    await search('   ');
    await waitFor(b.page, 'all rows back', async () => (await tableRows(b.page).count()) >= 3);
  });

  it('offers the page sizes 10/30/50/100/200', async () => {
    await b.page.locator('.ant-pagination-options .ant-select').click();
    const options = await b.page.locator('.ant-select-dropdown .ant-select-item-option').allInnerTexts();
    expect(options.map((o) => o.replace(/\D/g, ''))).toEqual(['10', '30', '50', '100', '200']);
    await b.page.keyboard.press('Escape');
  });

  it('shows the server\'s field error for a duplicate key on the field', async () => {
    await b.page.getByTestId('resource-add').click();
    await fillForm({ paramName: '重复', paramKey: 'e2e.upload.max', paramValue: 'x' });
    await b.page.getByTestId('resource-form-submit').click();
    await b.page.locator('.ant-form-item-explain-error', { hasText: '参数键名「e2e.upload.max」已存在' }).waitFor();
    await b.page.getByTestId('resource-form-cancel').click();
    await b.page.locator('.ant-modal').waitFor({ state: 'hidden' });
  });

  it('edits a parameter in the same form', async () => {
    await search('上传大小');
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1);
    await clickRowAction(tableRows(b.page).first(), 'resource-row-edit');
    await waitFor(b.page, 'form loaded', async () => (await b.page.locator('#resource_paramKey').inputValue()) === 'e2e.upload.max');
    await b.page.locator('#resource_paramValue').fill('20MB');
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '更新成功');
    await waitFor(b.page, 'row shows new value', async () => (await tableRows(b.page).first().innerText()).includes('20MB'));
  });

  it('shows a record in the detail view', async () => {
    await clickRowAction(tableRows(b.page).first(), 'resource-row-view');
    const detail = b.page.getByTestId('resource-detail');
    await detail.waitFor();
    await waitFor(b.page, 'detail content', async () => (await detail.innerText()).includes('e2e.upload.max'));
    await b.page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
  });

  it('deletes a row after confirmation', async () => {
    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    await b.page.getByText('确定将选择数据删除?').waitFor();
    await confirm(b.page);
    await toast(b.page, '删除成功');
    await waitFor(b.page, 'row gone', async () => (await tableRows(b.page).count()) === 0);
  });

  it('warns when batch-deleting with nothing selected, and batch-deletes the selected rows', async () => {
    await search('会话');
    await waitFor(b.page, 'two rows', async () => (await tableRows(b.page).count()) === 2);
    await b.page.getByTestId('resource-batch-delete').click();
    await toast(b.page, '请选择至少一条数据');
    await b.page.getByTestId('resource-table').locator('thead .ant-checkbox-input').check();
    await b.page.getByTestId('resource-batch-delete').click();
    await b.page.getByText('确定将选择数据删除?').waitFor();
    await confirm(b.page);
    await toast(b.page, '删除成功');
    await waitFor(b.page, 'rows gone', async () => (await tableRows(b.page).count()) === 0);
  });

});
