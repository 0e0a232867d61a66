import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { clickRowAction, pickOption, signIn, submitResourceForm, tableRows, toast, waitFor } from '../flows.js';
import { agentHolding, platformCalls } from '../simulatedLocks.js';

/**
 * The supplier screens in the browser, as the demo tenant's administrator: a lock dispatched to an agent's region
 * picked in the region cascader (浙江省 › 杭州市), shown by name in the list, the detail and the edit form; the
 * dispatch list searched by a region picked the same way; dispatch requests decided in the generic decide dialog,
 * one's own refused by the server, another's approved (zh, 1440) and rejected (en, 1280).
 */
const b = useBrowser();
const SYS = '/api/blade-system';
const IPC = '/sc/ymy-ipc/back';
const TENANT = '541742';
const DISPATCH = '/api/omc-device/area-dispatch';
const DISPATCH_OA = '/api/omc-device/area-dispatch-oa';
const BATCH = 'E2E-SUP-B1';
const SN = (i: number) => `SUPX0000000${i}`;
let zhejiang = '';
let zhejiangName = '';

async function call<T>(token: string, path: string, json?: unknown): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

/** The demo tenant's agent holding `region` (another test file may have made one: a region has one agent), or a new one. */
const agentFor = (token: string, region: string, name: string) => agentHolding(platformCalls(b.baseUrl, token), region, name);

/** A user of the demo tenant with its administrators' role, their first password changed; answers their token. */
async function demoUser(demo: string, account: string): Promise<string> {
  // the role list is a tree, unpaged
  const roles = await call<Array<{ id: string; roleAlias: string }>>(demo, `${SYS}/role/list`);
  const depts = await call<Array<{ id: string }>>(demo, `${SYS}/dept/tree`);
  const roleId = roles.find((r) => r.roleAlias === 'admin')!.id;
  await call(demo, `${SYS}/user/submit`, { account, name: account, realName: '审批员', deptId: depts[0]!.id, roleId, password: md5('First-pass-1') });
  const first = (await apiToken(b.baseUrl, TENANT, account, 'First-pass-1'))!;
  await call(first, `${SYS}/user/update-password`, { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') });
  return (await apiToken(b.baseUrl, TENANT, account, 'Second-pass-2'))!;
}

/** Picks a region path in the cascader whose input is `input`, level by level, then closes its list. */
async function pickRegion(page: Page, input: Locator, names: readonly string[]): Promise<void> {
  await input.click({ force: true });
  const menus = page.locator('.ant-cascader-dropdown:not(.ant-select-dropdown-hidden) .ant-cascader-menu');
  for (const [level, name] of names.entries()) await menus.nth(level).locator(`.ant-cascader-menu-item[title="${name}"]`).click();
  await page.keyboard.press('Escape');
  await page.locator('.ant-cascader-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
}

/** The text a cascader shows for its value. */
const shownPath = (input: Locator) => input.locator('xpath=ancestor::div[contains(@class, "ant-select")][1]').locator('.ant-select-selection-item').innerText();

/** The dispatch rows naming one of our locks, by SN. */
const dispatchedSns = async (page: Page) => (await tableRows(page).allInnerTexts()).flatMap((text) => [1, 2, 3, 4].map(SN).filter((sn) => text.includes(sn)));

beforeAll(async () => {
  const admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const type = await call<{ id: string }>(admin, '/api/ymy-product/type/submit', { typeName: 'E2E 供应门锁', typeCode: 'E2E-SUP-LOCK' });
  const model = await call<{ id: string }>(admin, '/api/ymy-product/model/submit', { typeId: type.id, modelName: 'E2E SUP1', modelCode: 'E2E-SUP1' });
  const product = await call<{ id: string }>(admin, '/api/ymy-product/product/submit', {
    productName: 'E2E 供应锁', productCode: 'E2E-SUP-P1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: 'E2ESUPPROD',
  });
  const factory = await call<{ id: string }>(admin, `${IPC}/add-factory`, { factoryName: 'E2E 供应工厂', factoryCode: 'E2E-SUP-F1' });
  const batch = await call<{ id: string }>(admin, `${IPC}/add-batch`, { batchNo: BATCH, factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: 4, snPrefix: 'supx' });
  // the demo tenant sees the type (beside what it was granted before) and receives the batch
  const granted = await call<string[]>(admin, `/api/ymy-product/auth/get-auth-pt?tenantId=${TENANT}`);
  await call(admin, '/api/ymy-product/auth/save-auth-pt', { tenantId: TENANT, typeIds: [...granted, type.id].join(',') });
  await call(admin, '/api/ymy-product/deliver/submit', { productId: product.id, batchId: batch.id, customerTenantId: TENANT, quantity: 4, deliverTime: '2026-11-20 10:00:00' });

  const demo = (await apiToken(b.baseUrl, TENANT, 'admin', 'admin'))!;
  ({ id: zhejiang, name: zhejiangName } = await agentFor(demo, '330000', 'E2E 浙江代理'));
  const jiangsu = await agentFor(demo, '320000', 'E2E 江苏代理');
  // the second lock is in Nanjing, for the search
  await call(demo, `${DISPATCH}/update`, { code: '320000,320100', agentId: jiangsu.id, deviceSn: SN(2) });
  await signIn(b.page, b.baseUrl, TENANT);
});

describe('区域派发', () => {
  it('dispatches a lock to a region picked in the cascader, shown by name in the list, the detail and the edit form', async () => {
    await b.page.goto(`${b.baseUrl}/supplier/region/dispatch`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    const code = b.page.locator('.ant-modal #resource_code');
    await pickRegion(b.page, code, ['浙江省', '杭州市']);
    expect(await shownPath(code)).toBe('浙江省 / 杭州市');
    await pickOption(b.page, 'agentId', zhejiangName);
    await b.page.locator('#resource_deviceSn').fill(SN(1).toLowerCase());
    await submitResourceForm(b.page);

    const row = tableRows(b.page).filter({ hasText: SN(1) });
    await waitFor(b.page, 'the dispatch listed with its region by name', async () => (await row.innerText()).includes('浙江省 / 杭州市'));
    expect(await row.innerText()).toContain(zhejiangName);

    await clickRowAction(row, 'resource-row-view');
    const detail = b.page.getByTestId('resource-detail');
    await waitFor(b.page, 'the detail', async () => (await detail.innerText()).includes('浙江省 / 杭州市'));
    expect(await detail.innerText()).toContain('330000,330100');
    await b.page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });

    // the edit form shows the stored path by name
    await clickRowAction(row, 'resource-row-edit');
    const stored = b.page.locator('.ant-modal #resource_code');
    await stored.waitFor();
    await waitFor(b.page, 'the stored path by name', async () => (await shownPath(stored)) === '浙江省 / 杭州市');
    await b.page.getByTestId('resource-form-cancel').click();
    await b.page.locator('.ant-modal').waitFor({ state: 'hidden' });
  });

  it('is searched by a region picked in the search form: that region and every region under it', async () => {
    const search = b.page.locator('#search_code');
    await pickRegion(b.page, search, ['浙江省']);
    const searched = b.page.waitForResponse((r) => r.url().includes(`${DISPATCH}/list`) && r.url().includes('code_likeright=330000'));
    await b.page.getByTestId('resource-search-submit').click();
    await searched;
    await waitFor(b.page, 'Zhejiang\'s lock alone', async () => JSON.stringify(await dispatchedSns(b.page)) === JSON.stringify([SN(1)]));

    await pickRegion(b.page, search, ['江苏省', '南京市']);
    const nanjing = b.page.waitForResponse((r) => r.url().includes(`${DISPATCH}/list`) && r.url().includes('code_likeright=320100'));
    await b.page.getByTestId('resource-search-submit').click();
    await nanjing;
    await waitFor(b.page, 'Nanjing\'s lock alone', async () => JSON.stringify(await dispatchedSns(b.page)) === JSON.stringify([SN(2)]));
    expect(await tableRows(b.page).filter({ hasText: SN(2) }).innerText()).toContain('江苏省 / 南京市');

    await b.page.getByTestId('resource-search-reset').click();
    await waitFor(b.page, 'both locks again', async () => (await dispatchedSns(b.page)).sort().join() === [SN(1), SN(2)].join());
  });
});

describe('派发审批', () => {
  let approver = '';
  let demo = '';

  beforeAll(async () => {
    demo = (await apiToken(b.baseUrl, TENANT, 'admin', 'admin'))!;
    approver = await demoUser(demo, 'e2e_dispatcher');
  });

  it('refuses one\'s own request with the server\'s message, and approves another\'s in the decide dialog', async () => {
    await call(demo, `${DISPATCH_OA}/update`, { code: '330000', agentId: zhejiang, deviceSn: SN(3) });
    await call(approver, `${DISPATCH_OA}/update`, { code: '330000,330100', agentId: zhejiang, deviceSn: SN(4) });
    await b.page.goto(`${b.baseUrl}/supplier/region/dispatch_oa`);
    await b.page.getByTestId('resource-page').waitFor();

    const own = tableRows(b.page).filter({ hasText: SN(3) });
    await clickRowAction(own, 'resource-row-action-area_dispatch_oa_process');
    const dialog = b.page.getByTestId('resource-decide');
    await dialog.waitFor();
    expect(await b.page.locator('.ant-modal-title').filter({ hasText: '审批「浙江省」' }).count()).toBe(1);
    await b.page.getByTestId('resource-decide-approve').click();
    await b.page.getByTestId('resource-decide-submit').click();
    await toast(b.page, '不能审批自己提交的申请');
    expect(await dialog.isVisible()).toBe(true);
    await b.page.getByTestId('resource-decide-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await own.innerText()).toContain('待审批');

    const theirs = tableRows(b.page).filter({ hasText: SN(4) });
    await clickRowAction(theirs, 'resource-row-action-area_dispatch_oa_process');
    await dialog.waitFor();
    expect(await b.page.locator('.ant-modal-title').innerText()).toBe('审批「浙江省 / 杭州市」');
    // the decision is required
    await b.page.getByTestId('resource-decide-submit').click();
    await b.page.locator('.ant-form-item-explain-error', { hasText: '请选择通过或驳回' }).waitFor();
    await b.page.getByTestId('resource-decide-approve').click();
    await b.page.getByTestId('resource-decide-comment').fill('核实无误');
    await b.page.getByTestId('resource-decide-submit').click();
    await toast(b.page, '「审批」执行成功');
    await dialog.waitFor({ state: 'hidden' });
    await waitFor(b.page, 'the request approved', async () => (await theirs.innerText()).includes('已通过'));
    expect(await theirs.innerText()).toContain('核实无误');
    // decided: no decide button any more (nor edit and delete: the row's one button is 查看, inline)
    await theirs.getByTestId('resource-row-view').waitFor();
    expect(await theirs.getByTestId('resource-row-action-area_dispatch_oa_process').count()).toBe(0);
    // approved, the request became a dispatch of the lock
    const dispatched = await call<{ records: Array<{ deviceSn: string; codeName: string }> }>(demo, `${DISPATCH}/list?deviceSn_equal=${SN(4)}`);
    expect(dispatched.records.map((r) => r.codeName)).toEqual(['浙江省 / 杭州市']);
  });

  it('rejects a request in English at a laptop width', async () => {
    await call(approver, `${DISPATCH_OA}/update`, { code: '330000,330100,330106', agentId: zhejiang, deviceSn: SN(1) });
    await b.page.setViewportSize({ width: 1280, height: 800 });
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English UI', async () => (await b.page.evaluate(() => document.documentElement.lang)).startsWith('en'));
    await b.page.reload();
    await b.page.getByTestId('resource-page').waitFor();
    const row = tableRows(b.page).filter({ hasText: SN(1) });
    await waitFor(b.page, 'the pending request', async () => (await row.innerText()).includes('Pending'));
    expect(await row.innerText()).toContain('浙江省 / 杭州市 / 西湖区');
    await clickRowAction(row, 'resource-row-action-area_dispatch_oa_process');
    await b.page.getByTestId('resource-decide').waitFor();
    expect(await b.page.locator('.ant-modal-title').innerText()).toBe('Decide: “浙江省 / 杭州市 / 西湖区”');
    expect(await b.page.getByTestId('resource-decide').innerText()).toMatch(/Approve[\s\S]*Reject/);
    await b.page.getByTestId('resource-decide-reject').click();
    await b.page.getByTestId('resource-decide-submit').click();
    await toast(b.page, '“Decide” done');
    await waitFor(b.page, 'the request rejected', async () => (await row.innerText()).includes('Rejected'));
    // the row is on screen whole at 1280: its decisive columns in view
    expect(await row.getByText('Rejected').isVisible()).toBe(true);
  });
});
