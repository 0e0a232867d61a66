import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { openMenu, rowActionIds, signIn, signOutLocally, tableRows, waitFor } from '../flows.js';

/**
 * Nothing typed is lost, every refusal comes first (issue 26): the device notice screen keeps what was changed
 * across a tab switch and asks before it is dropped (another product, closing the tab, leaving the console); an
 * enabled notice without a channel is refused before saving; the emergency requests offer only what the server allows.
 */
const b = useBrowser();
const SYS = '/api/blade-system';
const TC = '/tc/omc-device';
const IPC = '/sc/ymy-ipc/back';
const NOTICE = '/device/notice';
const PRODUCTS = ['E2E 通知锁 A', 'E2E 通知锁 B'];
const SN = 'UFX00000001';
let admin = '';

async function call<T>(path: string, json?: unknown, token = admin): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

const tab = (key: string) => b.page.locator(`[data-testid="tab"][data-key="${key}"]`);
const page = () => b.page.locator(`[data-testid="kept-page"][data-key="${NOTICE}"]`);
const row = (type: string) => page().locator(`tr[data-notice-type="${type}"]`);
const confirmDialog = () => b.page.locator('.ant-modal-confirm');

async function keepEditing(): Promise<void> {
  await b.page.getByTestId('confirm-cancel').click();
  await confirmDialog().waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const type = await call<{ id: string }>('/api/ymy-product/type/submit', { typeName: 'E2E 通知门锁', typeCode: 'E2E-UF-LOCK' });
  const model = await call<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'E2E UF1', modelCode: 'E2E-UF1' });
  const ids: string[] = [];
  for (const [i, productName] of PRODUCTS.entries()) {
    ids.push((await call<{ id: string }>('/api/ymy-product/product/submit', {
      productName, productCode: `E2E-UF-P${i}`, typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: `E2EUFPROD${i}`,
    })).id);
  }
  const factory = await call<{ id: string }>(`${IPC}/add-factory`, { factoryName: 'E2E 通知工厂', factoryCode: 'E2E-UF-F1', phone: '0755-12345678' });
  await call(`${IPC}/add-batch`, { batchNo: 'E2E-UF-B1', factoryId: factory.id, productId: ids[0], cloudVendor: 1, quantity: 1, snPrefix: 'ufx' });
  // every product gets a row of each notice type (APP 推送, off)
  await call(`${TC}/device/notice/dict?sync=1`);
  await signIn(b.page, b.baseUrl);
});

describe('the device notice screen', () => {
  it('keeps what was changed across a tab switch, and asks before another product or closing the tab drops it', async () => {
    await b.page.setViewportSize({ width: 1280, height: 720 });
    await openMenu(b.page, 'device');
    await openMenu(b.page, 'device_notice');
    await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[0] }).click();
    await row('tamper').waitFor();
    await row('tamper').getByTestId('device-notice-enabled').click();
    await row('tamper').getByTestId('device-notice-template').fill('门锁 {sn} 被撬');

    // another tab and back: the switch, the template are as left
    await openMenu(b.page, 'device_info');
    await b.page.getByTestId('device-info-page').waitFor();
    await tab(NOTICE).click();
    await row('tamper').waitFor();
    expect(await row('tamper').getByTestId('device-notice-template').inputValue()).toBe('门锁 {sn} 被撬');
    expect(await row('tamper').getByTestId('device-notice-enabled').getAttribute('aria-checked')).toBe('true');

    // another product asks first; 取消 keeps the product and the change
    await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[1] }).click();
    expect(await confirmDialog().innerText()).toContain('未保存的修改');
    await keepEditing();
    expect(await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[0] }).getAttribute('aria-selected')).toBe('true');
    expect(await row('tamper').getByTestId('device-notice-template').inputValue()).toBe('门锁 {sn} 被撬');

    // closing the tab asks too; leaving the console is held for the browser's question
    await b.page.locator('.ant-tabs-tab', { has: tab(NOTICE) }).getByTestId('tab-close').click();
    await confirmDialog().waitFor();
    await keepEditing();
    expect(await tab(NOTICE).count()).toBe(1);
    expect(await b.page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(true);

    // saved: nothing to ask any more
    await page().getByTestId('device-notice-save').click();
    await b.page.locator('.ant-message-notice', { hasText: `已保存「${PRODUCTS[0]}」的通知配置` }).waitFor();
    await waitFor(b.page, 'the page without unsaved changes', async () => b.page.evaluate(() => window.dispatchEvent(new Event('beforeunload', { cancelable: true }))));
    await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[1] }).click();
    await waitFor(b.page, 'the second product chosen at once', async () =>
      (await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[1] }).getAttribute('aria-selected')) === 'true');
    expect(await confirmDialog().count()).toBe(0);
  });

  it('refuses a notice switched on without a channel before saving, saying which', async () => {
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await page().getByTestId('device-notice-product').filter({ hasText: PRODUCTS[1] }).click();
    const low = row('low_battery');
    await low.waitFor();
    await low.getByTestId('device-notice-enabled').click();
    await low.locator('label', { hasText: 'APP 推送' }).click();
    await low.getByTestId('device-notice-channel-error').waitFor();
    await page().getByTestId('device-notice-save').click();
    await b.page.locator('.ant-message-notice-error', { hasText: '通知「低电量」已启用，请至少选择一个通知渠道' }).waitFor();
    // nothing was saved: the server still has it off
    const saved = await call<{ records: Array<{ noticeType: string; enabled: number }> }>(`${TC}/device/notice/config/list?size=50&productId_equal=${
      (await call<Array<{ id: string; productName: string }>>(`${TC}/product/list`)).find((p) => p.productName === PRODUCTS[1])!.id}`);
    expect(saved.records.find((r) => r.noticeType === 'low_battery')?.enabled).toBe(0);
    // a channel again: the error goes
    await low.locator('label', { hasText: '短信' }).click();
    await low.getByTestId('device-notice-channel-error').waitFor({ state: 'detached' });
    await page().getByTestId('device-notice-save').click();
    await b.page.locator('.ant-message-notice', { hasText: `已保存「${PRODUCTS[1]}」的通知配置` }).waitFor();
  });
});

describe('the emergency requests', () => {
  it('offer 批准 only to someone else, and 编辑 only while a request is pending', async () => {
    const made = await call<{ id: string }>('/api/omc-device/emergency-unlock/submit', {
      deviceSn: SN, applicant: '张三', phone: '13800000000', reason: '钥匙丢失', codeKind: 1, codeCount: 1, validFrom: '2030-01-01 08:00:00',
    });
    await b.page.goto(`${b.baseUrl}/device/emergency`);
    const own = tableRows(b.page).filter({ hasText: SN });
    await waitFor(b.page, 'the request with 编辑', async () => (await rowActionIds(own)).includes('resource-row-edit'));
    // the applicant decides nothing of their own
    expect(await rowActionIds(own)).not.toContain('emergency-row-approve');
    expect(await rowActionIds(own)).not.toContain('emergency-row-reject');

    // another administrator approves it (the server refuses the applicant: emergency-unlock.test.ts)
    const role = (await call<Array<{ id: string; roleAlias: string }>>(`${SYS}/role/list`)).find((r) => r.roleAlias === 'administrator')!;
    const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
    await call(`${SYS}/user/submit`, { account: 'e2e_uf_approver', name: '审批员', realName: '审批员', deptId: depts[0]!.id, roleId: role.id, password: md5('First-pass-1') });
    const other = (await apiToken(b.baseUrl, '000000', 'e2e_uf_approver', 'First-pass-1'))!;
    await call(`${SYS}/user/update-password`, { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') }, other);
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, '000000', 'e2e_uf_approver', 'Second-pass-2');
    try {
      await b.page.goto(`${b.baseUrl}/device/emergency`);
      const theirs = tableRows(b.page).filter({ hasText: SN });
      await waitFor(b.page, '批准 offered to another administrator', async () => (await rowActionIds(theirs)).includes('emergency-row-approve'));
      const token = (await apiToken(b.baseUrl, '000000', 'e2e_uf_approver', 'Second-pass-2'))!;
      await call('/api/omc-device/emergency-unlock/approve', { id: made.id }, token);
      await b.page.reload();
      await waitFor(b.page, 'the request approved', async () => (await theirs.innerText()).includes('已批准'));
      // decided: no 编辑, no 批准; 生成开锁码 and 删除 remain
      const decided = await rowActionIds(theirs);
      expect(decided).not.toContain('resource-row-edit');
      expect(decided).not.toContain('emergency-row-approve');
      expect(decided).toContain('emergency-row-generate');
      // issued: nor 删除
      await call('/api/omc-device/emergency-code/generate', { id: made.id }, token);
      await b.page.reload();
      await waitFor(b.page, 'the request issued', async () => (await theirs.innerText()).includes('已生成'));
      const issued = await rowActionIds(theirs);
      expect(issued).not.toContain('resource-row-delete');
      expect(issued).toContain('emergency-row-codes');
    } finally {
      await signOutLocally(b.page, b.baseUrl);
      await signIn(b.page, b.baseUrl);
    }
  });
});
