import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '../../server/src/areas/device/gateway/fleet.js';
import { apiToken } from '../api.js';
import { useBrowser } from '../browser.js';
import { connect, simulatedBatch as makeBatch, platformCalls, type PlatformCalls, simulatedProduct } from '../simulatedLocks.js';
import { pickOption, signIn, submitResourceForm, tableRows, waitFor, clickRowAction } from '../flows.js';

/**
 * Issue 11's browser proof: firmware uploaded, an OTA task started on a batch of simulated locks from the console,
 * and the live view following the devices until all succeeded. The locks are the simulator's, connected to the
 * server's embedded broker with the credentials of certificates imported and allocated through the API.
 */
const b = useBrowser();
const TAG = 'SIM';
const CLOUD_PRODUCT = 'E2ESIMPROD';
// the product simulatedProduct makes of the tag
const PRODUCT = `E2E ${TAG} 锁`;
const BATCH = 'E2E-SIM-B1';
const VERSION = '5.0.0';
let admin = '';
let fleet: Fleet | undefined;

let sns: string[] = [];
let p: PlatformCalls;
let productId = '';
let factoryId = '';
const fleets: Fleet[] = [];

/**
 * A batch of three locks of the product, their IoT credentials imported as the cloud hands them out and allocated,
 * connected as simulated locks; `random` decides their OTA fate (below the fleet's failRate: the install fails).
 */
async function simulatedBatch(batchNo: string, snPrefix: string, options: { failRate?: number; random: () => number }): Promise<{ fleet: Fleet; sns: string[] }> {
  const { sessions } = await makeBatch(p, { batchNo, snPrefix, count: 3, productId, factoryId, cloudProductId: CLOUD_PRODUCT });
  expect(sessions).toHaveLength(3);
  const made = await connect(sessions, { speed: 10, version: '4.0.0', ...options });
  fleets.push(made);
  return { fleet: made, sns: sessions.map((x) => x.sn) };
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  p = platformCalls(b.baseUrl, admin);
  ({ productId, factoryId } = await simulatedProduct(p, TAG, CLOUD_PRODUCT));

  // the firmware, uploaded with its record and published
  const fw = new FormData();
  fw.append('productId', productId);
  fw.append('moduleType', 'mcu');
  fw.append('version', VERSION);
  fw.append('file', new Blob([randomBytes(32 * 1024)]), `lock-${VERSION}.bin`);
  const firmware = await p.multipart<{ id: string }>('/api/ymy-firmware/firmware/submit', fw);
  await p.call(`/api/ymy-firmware/firmware/publish?id=${firmware.id}`, {});

  // the simulated locks connect
  ({ fleet, sns } = await simulatedBatch(BATCH, 'simx', { random: () => 0.5 }));
  await signIn(b.page, b.baseUrl);
});

afterAll(async () => {
  for (const f of fleets) await f.stop();
});

describe('an OTA task on simulated locks', () => {
  it('is started from the console and followed live until every device succeeded', async () => {
    await b.page.goto(`${b.baseUrl}/device/ota`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_taskName').fill('E2E 模拟升级');
    await pickOption(b.page, 'firmwareId', `${PRODUCT} · ${VERSION}`);
    await b.page.locator('.ant-modal label.ant-radio-button-wrapper', { hasText: '指定批次' }).click();
    await pickOption(b.page, 'batchId', BATCH);
    await submitResourceForm(b.page);

    const row = tableRows(b.page).filter({ hasText: 'E2E 模拟升级' });
    await row.waitFor();
    await clickRowAction(row, 'ota-row-progress');
    const view = b.page.getByTestId('ota-task-view');
    await view.waitFor();
    const count = async (state: string) => Number((await view.getByTestId(`ota-count-${state}`).locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''));
    await waitFor(b.page, 'three devices succeeded', async () => (await count('succeeded')) === 3, 45_000);
    expect(await count('failed')).toBe(0);
    await waitFor(b.page, 'the task finished', async () => (await view.innerText()).includes('任务已结束'), 15_000);
    // the devices' table shows the final states once the task has ended
    await waitFor(b.page, 'three devices listed as succeeded', async () => ((await view.locator('tbody').innerText()).match(/成功/g)?.length ?? 0) === 3, 10_000);
    expect(fleet!.counters.otaSucceeded).toBe(3);
    // the SN box finds a device by its SN's start, typed in any case (the whole SN here: the batch's SNs differ in their last digit)
    const sn = sns[1]!;
    await view.locator('#search_deviceSn').fill(sn.toLowerCase());
    await view.getByTestId('resource-search-submit').click();
    await waitFor(b.page, `only ${sn} listed`, async () => {
      const rows = await view.locator('tbody tr.ant-table-row').allInnerTexts();
      return rows.length === 1 && rows[0]!.includes(sn);
    }, 10_000);
    await b.page.keyboard.press('Escape');
    await b.page.reload();
    await waitFor(b.page, 'the task listed as finished', async () => (await tableRows(b.page).filter({ hasText: 'E2E 模拟升级' }).innerText()).includes('已完成'), 10_000);
  });

  it('retries the failed devices from the console: the upgrade is sent again and succeeds; the progress exports named after the task', async () => {
    // these locks fail their install until told otherwise (the task's own retry fails too)
    let failing = true;
    const second = await simulatedBatch('E2E-SIM-B2', 'simy', { failRate: 0.5, random: () => (failing ? 0.2 : 0.9) });
    await b.page.goto(`${b.baseUrl}/device/ota`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_taskName').fill('E2E 重试升级');
    await pickOption(b.page, 'firmwareId', `${PRODUCT} · ${VERSION}`);
    await b.page.locator('.ant-modal label.ant-radio-button-wrapper', { hasText: '指定批次' }).click();
    await pickOption(b.page, 'batchId', 'E2E-SIM-B2');
    await submitResourceForm(b.page);

    const row = () => tableRows(b.page).filter({ hasText: 'E2E 重试升级' });
    await row().waitFor();
    // no retry offered while nothing failed; the list is reloaded until the task ends with three failures
    await waitFor(b.page, 'the task ended with three failed devices', async () => {
      await b.page.getByTestId('resource-search-submit').click();
      const text = await row().innerText();
      return text.includes('已完成') && (await row().getByTestId('ota-row-retry').count()) === 1;
    }, 45_000);
    expect(second.fleet.counters.otaFailed).toBe(6); // each lock: its first attempt and the task's one retry
    expect(second.fleet.counters.otaSucceeded).toBe(0);

    failing = false;
    await row().getByTestId('ota-row-retry').click();
    await expect.poll(() => b.page.locator('.ant-modal-confirm').innerText()).toContain('3 台失败或超时设备');
    await b.page.getByTestId('confirm-ok').click();
    await b.page.locator('.ant-message', { hasText: '已重新排队 3 台设备' }).waitFor();

    await row().getByTestId('ota-row-progress').click();
    const view = b.page.getByTestId('ota-task-view');
    await view.waitFor();
    const count = async (state: string) => Number((await view.getByTestId(`ota-count-${state}`).locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''));
    await waitFor(b.page, 'three devices succeeded on the new attempt', async () => (await count('succeeded')) === 3, 45_000);
    expect(second.fleet.counters.otaSucceeded).toBe(3);
    await waitFor(b.page, 'the task finished again', async () => (await view.innerText()).includes('任务已结束'), 15_000);
    await waitFor(b.page, 'the devices listed at their third attempt', async () => {
      const rows = await view.locator('tbody tr.ant-table-row').allInnerTexts();
      return rows.length === 3 && rows.every((r) => r.includes('成功'));
    }, 10_000);

    // the task's devices as .xlsx, named after the task
    const [download] = await Promise.all([b.page.waitForEvent('download'), view.getByTestId('resource-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^升级进度-E2E 重试升级-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows.slice(1).map((r) => r[1]).sort()).toEqual([...second.sns].sort());
    expect(rows.slice(1).every((r) => r.includes('成功') && r.includes(3))).toBe(true);
    await b.page.keyboard.press('Escape');
    // nothing failed now: no retry offered
    await expect.poll(() => row().getByTestId('ota-row-retry').count()).toBe(0);
  });
});
