import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { confirm, pickOption, rowActionIds, signIn, signOutLocally, submitResourceForm, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

/**
 * The device operations screens (issue 11) in the browser: a firmware uploaded through the form and published
 * with the generic action button, an OTA task over a batch watched live and cancelled, an emergency unlock
 * approved by another user who sees the codes once, a device looked up by SN, a product's notices saved.
 * No simulated device runs here (ota-simulated.test.ts plays them): these devices have no IoT credentials, so
 * the task fails each of them as its turn comes, saying so, unless it is cancelled first.
 */
const b = useBrowser();
const SYS = '/api/blade-system';
const IPC = '/sc/ymy-ipc/back';
const PRODUCT = 'E2E 设备锁';
const BATCH = 'E2E-DV-B1';
const SN = 'DVX00000001';
const VERSION = '9.1.0';
let admin = '';

async function call<T>(path: string, json?: unknown, token = admin): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

interface MenuRow { id: string; code: string; children?: MenuRow[] }

async function menuIds(...codes: string[]): Promise<string[]> {
  const flat = (rows: MenuRow[]): MenuRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
  const all = flat(await call<MenuRow[]>(`${SYS}/menu/list`));
  return codes.map((c) => {
    const row = all.find((m) => m.code === c);
    if (!row) throw new Error(`no menu ${c}`);
    return row.id;
  });
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const type = await call<{ id: string }>('/api/ymy-product/type/submit', { typeName: 'E2E 设备门锁', typeCode: 'E2E-DV-LOCK' });
  const model = await call<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'E2E DV1', modelCode: 'E2E-DV1' });
  const product = await call<{ id: string }>('/api/ymy-product/product/submit', {
    productName: PRODUCT, productCode: 'E2E-DV-P1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: 'E2EDVPROD',
  });
  const factory = await call<{ id: string }>(`${IPC}/add-factory`, { factoryName: 'E2E 设备工厂', factoryCode: 'E2E-DV-F1' });
  await call(`${IPC}/add-batch`, { batchNo: BATCH, factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: 3, snPrefix: 'dvx' });
  const devices = await call<{ records: Array<{ sn: string }> }>(`${IPC}/get-device-list?productId=${product.id}&size=10`);
  expect(devices.records.map((d) => d.sn)).toContain(SN);
  await signIn(b.page, b.baseUrl);
});

describe('device operations', () => {
  it('uploads a firmware file through the form and publishes it with the generic action button', async () => {
    await b.page.goto(`${b.baseUrl}/device/firmware`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await pickOption(b.page, 'productId', PRODUCT);
    await pickOption(b.page, 'moduleType', '主控 MCU');
    await b.page.locator('#resource_version').fill(VERSION);
    const upload = b.page.locator('.ant-modal').getByTestId('resource-upload');
    await upload.locator('input[type=file]').setInputFiles({ name: 'lock-9.1.0.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096, 7) });
    await waitFor(b.page, 'the firmware file\'s link in the form', async () => /^\/files\/.+/.test((await upload.getAttribute('data-value')) ?? ''));
    // the form shows the file by the name it was uploaded with, not its storage key
    await upload.getByText('lock-9.1.0.bin', { exact: true }).waitFor();
    await submitResourceForm(b.page);

    const row = tableRows(b.page).filter({ hasText: VERSION });
    await waitFor(b.page, 'the draft', async () => (await row.innerText()).includes('草稿'));
    // measured by the server as it stored the bytes
    const stored = await call<{ records: Array<{ version: string; fileSize: number; sha256: string }> }>(`/api/ymy-firmware/firmware/list?version=${VERSION}`);
    expect(stored.records[0]).toMatchObject({ version: VERSION, fileSize: 4096 });
    expect(await row.innerText()).toContain('4 KB');
    // a draft offers 发布, not 撤回
    expect(await rowActionIds(row)).not.toContain('resource-row-action-firmware_withdraw');
    await clickRowAction(row, 'resource-row-action-firmware_publish');
    expect(await b.page.locator('.ant-modal-confirm').innerText()).toContain(`「${VERSION}」`);
    await confirm(b.page);
    await toast(b.page, '「发布」执行成功');
    await waitFor(b.page, 'the firmware published', async () => (await row.innerText()).includes('已发布'));
    // published: 撤回 in place of 发布
    await waitFor(b.page, '撤回 offered', async () => (await rowActionIds(row)).includes('resource-row-action-firmware_withdraw'));
    expect(await rowActionIds(row)).not.toContain('resource-row-action-firmware_publish');
    // firmware lives on this server (FIRMWARE_CLOUD=own): there is no cloud to upload to, and 上传云端 is not
    // offered, on the row nor behind 更多
    expect(await rowActionIds(row)).not.toContain('resource-row-action-firmware_cloud');
  });

  it('syncs device control commands with the generic button, over the selection and from a row', async () => {
    await call('/tc/omc-device/control/submit', { deviceSn: SN, action: 'disable', reason: 'E2E 丢失挂失' });
    await b.page.goto(`${b.baseUrl}/device/control`);
    const row = tableRows(b.page).filter({ hasText: SN });
    await row.waitFor();
    // the toolbar's button needs a selection
    await b.page.getByTestId('resource-action-device_control_sync').click();
    await toast(b.page, '请选择至少一条数据');
    await row.locator('.ant-checkbox-input').check();
    await b.page.getByTestId('resource-action-device_control_sync').click();
    expect(await b.page.locator('.ant-modal-confirm').innerText()).toContain(`「${SN}」`);
    await confirm(b.page);
    await toast(b.page, /已向 \d+ 台设备下发, \d+ 台离线/);
    await row.getByTestId('resource-row-action-device_control_sync').click();
    await confirm(b.page);
    await toast(b.page, /已向 \d+ 台设备下发/);
  });

  it('creates an OTA task over a batch, watches it live and cancels it', async () => {
    await b.page.goto(`${b.baseUrl}/device/ota`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    expect(await b.page.locator('.ant-modal-title').innerText()).toBe('新建升级任务');
    await b.page.locator('#resource_taskName').fill('E2E 批次升级');
    await pickOption(b.page, 'firmwareId', `${PRODUCT} · ${VERSION}`);
    await b.page.locator('.ant-modal label.ant-radio-button-wrapper', { hasText: '指定批次' }).click();
    await pickOption(b.page, 'batchId', BATCH);
    // one device a minute: the first's turn comes at once, the others' later, so the task is still running to cancel
    await b.page.locator('#resource_rateLimit').fill('1');
    await submitResourceForm(b.page);

    const row = tableRows(b.page).filter({ hasText: 'E2E 批次升级' });
    await waitFor(b.page, 'the running task', async () => (await row.innerText()).includes('进行中'));
    const summaries: number[] = [];
    b.page.on('response', (r) => { if (r.url().includes('/ota-task/summary')) summaries.push(Date.now()); });
    await clickRowAction(row, 'ota-row-progress');
    const view = b.page.getByTestId('ota-task-view');
    await view.waitFor();
    await waitFor(b.page, 'three devices counted', async () => (await view.getByTestId('ota-count-total').innerText()).includes('3'));
    const n = async (s: string) => Number((await view.getByTestId(`ota-count-${s}`).locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''));
    expect((await n('queued')) + (await n('notified')) + (await n('failed'))).toBe(3);
    await waitFor(b.page, 'the devices of the task', async () => (await view.locator('tbody tr.ant-table-row').count()) === 3);
    expect(await view.locator('tbody').innerText()).toContain(SN);
    // live: asked again every 2 s while the task runs
    await waitFor(b.page, 'a second summary', async () => summaries.length >= 2, 8000);
    await b.page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });

    await clickRowAction(row, 'ota-row-cancel');
    await confirm(b.page);
    await toast(b.page, '升级任务已取消');
    await waitFor(b.page, 'the task cancelled', async () => (await row.innerText()).includes('已取消'));
    expect(await row.getByTestId('ota-row-cancel').count()).toBe(0);
    await clickRowAction(row, 'ota-row-progress');
    // those still waiting are cancelled; a device without credentials may have failed before
    await waitFor(b.page, 'no device left waiting', async () => (await n('cancelled')) + (await n('failed')) === 3);
    expect(await view.innerText()).toContain('任务已结束');
    // a finished task is not asked again
    const seen = summaries.length;
    await b.page.waitForTimeout(2500);
    expect(summaries.length).toBe(seen);
    await b.page.keyboard.press('Escape');
  });

  it('lets another user approve an emergency unlock and generate its codes, shown once', async () => {
    const request = await call<{ id: string }>('/api/omc-device/emergency-unlock/submit', {
      deviceSn: SN, applicant: '张三', phone: '13800000000', reason: '钥匙丢失', codeKind: 1, codeCount: 2, validFrom: '2030-01-01 08:00:00',
    });
    const role = await call<{ id: string }>(`${SYS}/role/submit`, { roleName: 'E2E应急审批', roleAlias: 'e2e_emergency', sort: 41 });
    await call(`${SYS}/role/grant`, { roleIds: role.id, menuIds: (await menuIds('device', 'emergency_unlock', 'emergency_approve', 'emergency_generate')).join(',') });
    const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
    await call(`${SYS}/user/submit`, { account: 'e2e_approver', name: '审批员', realName: '审批员', deptId: depts[0]!.id, roleId: role.id, password: md5('First-pass-1') });
    const userToken = (await apiToken(b.baseUrl, '000000', 'e2e_approver', 'First-pass-1'))!;
    await call(`${SYS}/user/update-password`, { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') }, userToken);

    // the applicant (admin) is not offered to approve their own request (the server refuses it too)
    await b.page.goto(`${b.baseUrl}/device/emergency`);
    const own = tableRows(b.page).filter({ hasText: SN });
    await own.getByTestId('emergency-row-codes').waitFor();
    expect(await own.getByTestId('emergency-row-approve').count()).toBe(0);

    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, '000000', 'e2e_approver', 'Second-pass-2');
    try {
      await b.page.goto(`${b.baseUrl}/device/emergency`);
      const row = tableRows(b.page).filter({ hasText: SN });
      await clickRowAction(row, 'emergency-row-approve');
      await b.page.locator('#emergency-approve_comment').fill('核实身份后批准');
      await b.page.getByTestId('emergency-approve-submit').click();
      await toast(b.page, '已批准');
      await waitFor(b.page, 'the request approved', async () => (await row.innerText()).includes('已批准'));

      await clickRowAction(row, 'emergency-row-generate');
      await confirm(b.page);
      const issued = b.page.getByTestId('emergency-issued');
      await issued.waitFor();
      const codes = await issued.getByTestId('emergency-issued-code').allInnerTexts();
      expect(codes).toHaveLength(2);
      for (const code of codes) expect(code).toMatch(/^\d{6,}$/);
      expect(await issued.innerText()).toContain('只显示这一次');
      await b.page.getByTestId('emergency-codes-close').click();
      await issued.waitFor({ state: 'hidden' });
      await waitFor(b.page, 'the request issued', async () => (await row.innerText()).includes('已生成'));

      // afterwards the codes are masked
      await clickRowAction(row, 'emergency-row-codes');
      const drawer = b.page.getByTestId('emergency-codes');
      await waitFor(b.page, 'the two codes listed', async () => (await drawer.locator('tbody tr.ant-table-row').count()) === 2);
      const listed = await drawer.locator('tbody').innerText();
      expect(await drawer.getByTestId('emergency-code-masked').allInnerTexts()).toEqual(['******', '******']);
      for (const code of codes) expect(listed).not.toContain(code);
      await b.page.keyboard.press('Escape');
      expect(request.id).toBeTruthy();
    } finally {
      // the next tests are the administrator's
      await signOutLocally(b.page, b.baseUrl);
      await signIn(b.page, b.baseUrl);
    }
  });

  it('looks a device up by SN: its product and batch; an unknown SN says so', async () => {
    await b.page.goto(`${b.baseUrl}/device/info`);
    const search = b.page.locator('[data-testid="device-info-page"] .ant-input-search input');
    await search.fill(SN.toLowerCase());
    await search.press('Enter');
    const card = b.page.getByTestId('device-info-descriptions');
    await card.waitFor();
    expect(await card.getByTestId('device-info-product').innerText()).toBe(PRODUCT);
    expect(await card.getByTestId('device-info-batch').innerText()).toBe(BATCH);
    expect(await card.innerText()).toContain('离线');

    await search.fill('NOSUCHSN0001');
    await search.press('Enter');
    await b.page.getByTestId('device-info-error').waitFor();
  });

  it('saves a product\'s notices and reads them back', async () => {
    await b.page.goto(`${b.baseUrl}/device/notice`);
    await b.page.getByTestId('device-notice-page').waitFor();
    // every product gets a row of each notice type it lacks
    await b.page.getByTestId('device-notice-sync').click();
    await toast(b.page, /通知类型已同步 \(新增 \d+ 项\)/);
    await b.page.getByTestId('device-notice-product').filter({ hasText: PRODUCT }).click();
    const config = b.page.getByTestId('device-notice-config');
    const tamper = config.locator('tr[data-notice-type="tamper"]');
    await tamper.waitFor();
    await tamper.getByTestId('device-notice-enabled').click();
    await tamper.locator('label', { hasText: '短信' }).click();
    await tamper.getByTestId('device-notice-template').fill('门锁 {sn} 被撬');
    await b.page.getByTestId('device-notice-save').click();
    await toast(b.page, `已保存「${PRODUCT}」的通知配置`);

    await b.page.reload();
    await b.page.getByTestId('device-notice-product').filter({ hasText: PRODUCT }).click();
    await tamper.waitFor();
    expect(await tamper.getByTestId('device-notice-enabled').getAttribute('aria-checked')).toBe('true');
    expect(await tamper.getByTestId('device-notice-template').inputValue()).toBe('门锁 {sn} 被撬');
    // synced rows come with APP 推送; 短信 was added here
    expect(await tamper.locator('.ant-checkbox-wrapper-checked').allInnerTexts()).toEqual(['APP 推送', '短信']);
    // (the product list's noticeCount is not checked: the server answers 0 for a product with an enabled type)
  });
});
