import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { useBrowser } from '../browser.js';
import { clickRowAction, confirm, signIn, tableRows, toast, waitFor } from '../flows.js';

/**
 * No delete orphans anything (issue 26): the delete confirmation asks the server first. A row still in use is
 * not offered for deletion and the dialog says what uses it; a batch's confirmation says what goes with it.
 * zh at 1280×720, en at 1440×900.
 */
const b = useBrowser();

beforeAll(async () => {
  const token = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const post = async (path: string, json: Record<string, unknown>) => {
    const res = await api<{ id: string }>(b.baseUrl, token, path, { method: 'POST', json });
    expect(res.code, res.msg).toBe(200);
    return res.data;
  };
  const type = await post('/api/ymy-product/type/submit', { typeName: 'RR 门锁', typeCode: 'RR-LOCK' });
  const model = await post('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'RR X1 Pro', modelCode: 'RR-X1' });
  const product = await post('/api/ymy-product/product/submit', { productName: 'RR 智能锁', productCode: 'RR-P1', typeId: type.id, modelId: model.id, cloudVendor: 1 });
  const factory = await post('/sc/ymy-ipc/back/add-factory', { factoryName: 'RR 工厂', factoryCode: 'RR-F1' });
  await post('/sc/ymy-ipc/back/add-batch', { batchNo: 'RR-B001', factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: 3, snPrefix: 'RRB' });
  await signIn(b.page, b.baseUrl);
});

async function setLang(lang: 'zh' | 'en'): Promise<void> {
  await b.page.getByTestId('user-menu').click();
  await b.page.getByTestId(`lang-${lang}`).click();
}

describe('the delete confirmation says what the delete would do', () => {
  it('zh, 1280: a product type still in use is not offered for deletion, the dialog names what uses it', async () => {
    await b.page.setViewportSize({ width: 1280, height: 720 });
    await b.page.goto(`${b.baseUrl}/product/type`);
    const row = tableRows(b.page).filter({ hasText: 'RR 门锁' });
    await clickRowAction(row, 'resource-row-delete');
    const dialog = b.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('产品型号「RR X1 Pro」等 1 条记录仍在使用「RR 门锁」；产品信息「RR 智能锁」等 1 条记录仍在使用「RR 门锁」, 不能删除');
    expect(await dialog.getByTestId('confirm-cancel').count()).toBe(0);
    await confirm(b.page);
    expect(await tableRows(b.page).filter({ hasText: 'RR 门锁' }).count()).toBe(1);
  });

  it('en, 1440: a batch\'s confirmation says its devices go with it; confirmed, it is gone', async () => {
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await setLang('en');
    await b.page.goto(`${b.baseUrl}/production/batch`);
    const row = tableRows(b.page).filter({ hasText: 'RR-B001' });
    await clickRowAction(row, 'resource-row-delete');
    const dialog = b.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('3 record(s) of Batch devices will be deleted with it. Delete?');
    await confirm(b.page);
    await toast(b.page, 'Deleted');
    await waitFor(b.page, 'the batch gone from the list', async () => (await tableRows(b.page).filter({ hasText: 'RR-B001' }).count()) === 0);
    await setLang('zh');
  });
});
