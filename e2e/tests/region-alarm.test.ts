import type { Fleet } from '../../server/src/areas/device/gateway/fleet.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { useBrowser } from '../browser.js';
import { signIn, tableRows, waitFor } from '../flows.js';
import { agentHolding, connect, platformCalls, simulatedBatch, simulatedProduct } from '../simulatedLocks.js';

/**
 * Issue 27's browser proof of the region alarm: a batch of simulated locks delivered to the demo tenant and
 * dispatched to its Zhejiang agent; one lock activates in Shenzhen (its location report over MQTT); the console
 * signed in as the demo tenant's administrator shows the alarm on its next poll (REGION_ALARM_MS, shortened for the
 * browser tests in global-setup.ts), and its button opens the warnings.
 */
const b = useBrowser();
const CLOUD = 'E2EAREAPRD';
const BATCH = 'E2E-AREA-B1';
let fleet: Fleet | undefined;
let sns: string[] = [];

beforeAll(async () => {
  const admin = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const p = platformCalls(b.baseUrl, admin);
  const { typeId, productId, factoryId } = await simulatedProduct(p, 'AREA', CLOUD);
  const { batchId, sessions } = await simulatedBatch(p, { batchNo: BATCH, snPrefix: 'areax', count: 2, productId, factoryId, cloudProductId: CLOUD });
  sns = sessions.map((s) => s.sn);
  // the demo tenant sees the type, receives the batch, and dispatches it to the agent of Zhejiang
  await p.call('/api/ymy-product/auth/save-auth-pt', { tenantId: '541742', typeIds: typeId });
  await p.call('/api/ymy-product/deliver/submit', { productId, batchId, customerTenantId: '541742', quantity: 2, deliverTime: '2026-11-20 10:00:00' });
  const demo = platformCalls(b.baseUrl, (await apiToken(b.baseUrl, '541742', 'admin', 'admin'))!);
  const agent = await agentHolding(demo, '330000', 'E2E 浙江代理');
  const dispatch = await demo.call<{ quantity: number }>('/api/omc-device/area-dispatch/update', { code: '330000,330100', agentId: agent.id, batchNo: BATCH });
  expect(dispatch.quantity).toBe(2);
  fleet = await connect(sessions);
  // the console's first poll counts what there is: the alarm is for what comes after it
  const firstPoll = b.page.waitForResponse((r) => r.url().includes('/api/omc-log/device-area-warn/list'), { timeout: 30_000 });
  await signIn(b.page, b.baseUrl, '541742');
  await firstPoll;
});

afterAll(async () => {
  await fleet?.stop();
});

describe('the region alarm', () => {
  it('appears when a dispatched lock activates outside its region, and opens the warnings', async () => {
    const token = (await apiToken(b.baseUrl, '541742', 'admin', 'admin'))!;
    const count = async () => (await api<{ total: number }>(b.baseUrl, token, '/api/omc-log/device-area-warn/list')).data.total;
    expect(await count()).toBe(0);
    expect(fleet!.locate(sns[0]!, { lat: 22.5329, lng: 113.9305, regionCode: '440305', address: '广东省深圳市南山区' })).toBe(true);
    // a lock inside its region raises nothing
    expect(fleet!.locate(sns[1]!, { lat: 30.2592, lng: 120.13, regionCode: '330106' })).toBe(true);
    await waitFor(b.page, 'the warning written', async () => (await count()) === 1, 15_000);

    const alarm = b.page.getByTestId('region-alarm');
    await alarm.waitFor({ timeout: 20_000 });
    expect(await alarm.innerText()).toContain('区域预警: 新增 1 条');
    const notice = b.page.locator('.ant-notification-notice').filter({ has: alarm });
    expect(await notice.innerText()).toContain(`设备 ${sns[0]} 在 广东省 / 深圳市 / 南山区 激活, 其派发区域为 浙江省 / 杭州市`);
    await notice.getByTestId('region-alarm-open').click();
    await b.page.waitForURL('**/supplier/region/wrong_log');
    await waitFor(b.page, 'the warning listed', async () => (await tableRows(b.page).filter({ hasText: sns[0]! }).count()) === 1);
  });

  it('says it in English at a laptop width, for each new warning', async () => {
    await b.page.setViewportSize({ width: 1280, height: 800 });
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English UI', async () => (await b.page.evaluate(() => document.documentElement.lang)).startsWith('en'));
    // the other lock is seen in Beijing: a second warning
    expect(fleet!.locate(sns[1]!, { lat: 39.9288, lng: 116.4164, regionCode: '110101' })).toBe(true);
    const alarm = b.page.getByTestId('region-alarm');
    await waitFor(b.page, 'the English alarm', async () => (await alarm.count()) === 1 && (await alarm.innerText()).includes('Region alarm: 1 new'), 20_000);
    const notice = b.page.locator('.ant-notification-notice').filter({ has: alarm });
    expect(await notice.innerText()).toContain(`The lock ${sns[1]} was activated in 北京市 / 市辖区 / 东城区; it was dispatched to 浙江省 / 杭州市`);
    const open = notice.getByTestId('region-alarm-open');
    expect(await open.isVisible()).toBe(true);
    await open.click();
    await waitFor(b.page, 'both warnings listed', async () => (await tableRows(b.page).count()) === 2);
  });
});
