import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { useBrowser } from '../browser.js';
import { confirm, openMenu, pickOption, signIn, submitResourceForm, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The IPC back office in the browser (issue 10): a factory and its station, a batch with its devices, a
 * certificate import with a bad row and its report, the batch's devices exported.
 */
const b = useBrowser();

beforeAll(async () => {
  const token = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const type = await api<{ id: string }>(b.baseUrl, token, '/api/ymy-product/type/submit', { method: 'POST', json: { typeName: 'E2E 门锁', typeCode: 'E2E-LOCK' } });
  const model = await api<{ id: string }>(b.baseUrl, token, '/api/ymy-product/model/submit', { method: 'POST', json: { typeId: type.data.id, modelName: 'E2E K1', modelCode: 'E2E-K1' } });
  const product = await api(b.baseUrl, token, '/api/ymy-product/product/submit', {
    method: 'POST', json: { productName: 'E2E 智能锁', productCode: 'E2E-P1', typeId: type.data.id, modelId: model.data.id, cloudVendor: 1, cloudProductId: 'E2EPROD' },
  });
  expect(product.code, product.msg).toBe(200);
  await signIn(b.page, b.baseUrl);
});

describe('production', () => {
  it('sets up a factory and a station in the factory\'s drawer', async () => {
    // production is the sidebar's first entry (it shows only there, spec section 2)
    await openMenu(b.page, 'production', 'factory');
    await b.page.waitForURL('**/production/factory');
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_factoryName').fill('E2E 深圳一厂');
    await b.page.locator('#resource_factoryCode').fill('E2E-SZ1');
    await b.page.locator('#resource_contact').fill('王工');
    await submitResourceForm(b.page);
    const row = tableRows(b.page).filter({ hasText: 'E2E 深圳一厂' });
    await clickRowAction(row, 'resource-row-within-station');
    const drawer = b.page.getByTestId('within-station');
    await drawer.getByTestId('resource-add').click();
    await b.page.locator('#resource_stationName').fill('烧录工位 1');
    await b.page.locator('#resource_stationCode').fill('E2E-S1');
    await pickOption(b.page, 'stationType', '烧录');
    await b.page.locator('#resource_ip').fill('10.0.0.301');
    await b.page.getByTestId('resource-form-submit').click();
    await b.page.locator('.ant-form-item-explain-error', { hasText: '不是有效的 IPv4 或 IPv6 地址' }).waitFor();
    await b.page.locator('#resource_ip').fill('10.0.0.31');
    await submitResourceForm(b.page);
    await waitFor(b.page, 'the station in the drawer', async () => (await drawer.locator('tbody tr.ant-table-row', { hasText: 'E2E-S1' }).count()) === 1);
    // the factory is fixed by the drawer: no factory column, no factory in the form
    expect(await drawer.locator('thead').innerText()).not.toContain('工厂');
    await b.page.keyboard.press('Escape');
  });

  it('adds a station operator on the factory screen, and deletes them (their account with them) once confirmed', async () => {
    const row = tableRows(b.page).filter({ hasText: 'E2E 深圳一厂' });
    await clickRowAction(row, 'factory-row-operators');
    const panel = b.page.getByTestId('factory-operators');
    await panel.waitFor();
    await panel.getByTestId('operator-add').click();
    await b.page.locator('#operator-form_account').fill('e2e_op1');
    await b.page.locator('#operator-form_password').fill('Operator-1');
    await b.page.locator('#operator-form_realName').fill('操作员一');
    await b.page.getByTestId('operator-form-submit').click();
    await toast(b.page, '操作员已保存');
    const op = panel.locator('tbody tr', { hasText: 'e2e_op1' });
    await op.waitFor();
    expect(await apiToken(b.baseUrl, '000000', 'e2e_op1', 'Operator-1')).toBeTruthy();
    await op.getByTestId('operator-remove').click();
    const dialog = b.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('e2e_op1');
    await confirm(b.page);
    await toast(b.page, '操作员已删除');
    await op.waitFor({ state: 'detached' });
    expect(await apiToken(b.baseUrl, '000000', 'e2e_op1', 'Operator-1')).toBeNull();
    await b.page.locator('.ant-drawer-open .ant-drawer-close').click();
    await panel.waitFor({ state: 'hidden' });
  });

  it('creates a batch whose devices get consecutive SNs, and exports them', async () => {
    await b.page.goto(`${b.baseUrl}/production/batch`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_batchNo').fill('E2E-B001');
    await pickOption(b.page, 'factoryId', 'E2E 深圳一厂');
    await pickOption(b.page, 'productId', 'E2E 智能锁');
    await pickOption(b.page, 'cloudVendor', '腾讯云');
    await b.page.locator('#resource_quantity').fill('25');
    await b.page.locator('#resource_snPrefix').fill('e2e');
    await submitResourceForm(b.page);
    const row = tableRows(b.page).filter({ hasText: 'E2E-B001' });
    await waitFor(b.page, 'the SN range', async () => (await row.innerText()).includes('E2E00000001'));
    expect(await row.innerText()).toContain('E2E00000025');

    await clickRowAction(row, 'resource-row-within-factory_device');
    const drawer = b.page.getByTestId('within-factory_device');
    await waitFor(b.page, 'the batch\'s devices', async () => (await drawer.locator('tbody tr.ant-table-row').count()) === 10);
    expect(await drawer.locator('tbody tr.ant-table-row').first().innerText()).toContain('E2E00000001');
    const [download] = await Promise.all([b.page.waitForEvent('download'), drawer.getByTestId('resource-export').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile((await download.path())!)) as unknown as ArrayBuffer);
    const sns: string[] = [];
    book.worksheets[0]!.eachRow((r, n) => {
      if (n > 1) sns.push(String((r.values as unknown[])[1]));
    });
    expect(sns).toHaveLength(25);
    expect(sns[0]).toBe('E2E00000001');
    expect(sns[24]).toBe('E2E00000025');
    await b.page.keyboard.press('Escape');
  });

  it('imports certificates with one bad row: nothing is written, the report names the row', async () => {
    await b.page.goto(`${b.baseUrl}/production/cert`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-import').click();
    const csv = [
      'cloudVendor,cloudProductId,deviceName,deviceSecret',
      '1,E2EPROD,E2E00000001,cHNrLTE=',
      '1,NOSUCHPROD,E2E00000002,cHNrLTI=',
      '1,E2EPROD,E2E00000003,cHNrLTM=',
    ].join('\n');
    await b.page.locator('.ant-modal input[type=file]').setInputFiles({ name: 'certs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await b.page.getByTestId('import-start').click();
    const errors = b.page.getByTestId('import-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toContain('NOSUCHPROD');
    expect(await errors.locator('tbody tr').first().innerText()).toMatch(/^3\s/);
    const [report] = await Promise.all([b.page.waitForEvent('download'), b.page.getByTestId('import-report').click()]);
    const text = await readFile((await report.path())!, 'utf8');
    expect(text.replace(/^\uFEFF/, '').split('\r\n')[1]).toMatch(/^3,.*NOSUCHPROD/);
    expect(await tableRows(b.page).filter({ hasText: 'E2E0000000' }).count()).toBe(0);

    // the good rows alone import, and the secrets never show
    await b.page.locator('.ant-modal input[type=file]').setInputFiles({ name: 'certs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.split('\n').filter((l) => !l.includes('NOSUCH')).join('\n')) });
    await b.page.getByTestId('import-start').click();
    await b.page.getByTestId('import-done').waitFor();
    await b.page.keyboard.press('Escape');
    await waitFor(b.page, 'two certificates', async () => (await tableRows(b.page).filter({ hasText: 'E2E0000000' }).count()) === 2);
    expect(await b.page.locator('body').innerText()).not.toContain('cHNrLTE=');
  });

  it('gives a product its picture (checked as an image) and clears the product cache', async () => {
    await b.page.goto(`${b.baseUrl}/product/info`);
    await b.page.getByTestId('resource-page').waitFor();
    const row = tableRows(b.page).filter({ hasText: 'E2E-P1' });
    await clickRowAction(row, 'resource-row-edit');
    const upload = b.page.locator('.ant-modal').getByTestId('resource-upload');
    // a text file named .png is refused by its content, on the server
    await upload.locator('input[type=file]').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await toast(b.page, '只能上传图片');
    expect(await upload.getAttribute('data-value')).toBe('');
    await upload.locator('input[type=file]').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: TINY_PNG });
    await waitFor(b.page, 'the picture\'s link in the form', async () => /^\/files\/.+\.png$/.test((await upload.getAttribute('data-value')) ?? ''));
    await submitResourceForm(b.page, '更新成功');

    await b.page.getByTestId('resource-action-product_clear_cache').click();
    await b.page.getByTestId('confirm-ok').click();
    await toast(b.page, /清除完毕/);
  });
});
