import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { clickRowAction, confirm, openMenu, pickOption, signIn, signOutLocally, submitResourceForm, tableRows, toast, waitFor } from '../flows.js';
import { platformCalls, simulatedProduct } from '../simulatedLocks.js';

/**
 * Issue 28 in the browser: the after-sales lead answers a lock owner's feedback (zh, 1440) and the app reads the
 * reply; the finance clerk moves a paid cloud-storage order to the owner's other lock (en, 1280); the platform
 * writes a new version of the user agreement, publishes it, and /policy/user shows it. The owner is made through the
 * app's own calls: an SMS code (read from the log-only SMS provider's record), sign-up, binding, feedback, and an
 * order paid through Alipay (its notification signed here with a key pair made for the test).
 */
const b = useBrowser();
const TENANT = '541742';
const IPC = '/sc/ymy-ipc/back';
const SN = (i: number) => `AFSX0000000${i}`;
let demo = '';
let platform = '';
let ownerToken = '';
let orderNo = '';
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const ALIPAY_APP_ID = '2021000000000042';

async function call<T>(token: string | null, path: string, json?: unknown): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

/** the app's call, with its token */
async function appCall<T>(token: string, path: string, json?: unknown): Promise<T> {
  const res = await fetch(`${b.baseUrl}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { 'Blade-Auth': `bearer ${token}`, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = (await res.json()) as { success: boolean; msg: string; data: T };
  if (!body.success) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

/** registers a lock owner through the app: the SMS code is read from the log-only provider's record in the usual log */
async function registerOwner(phone: string): Promise<string> {
  await call(null, '/api/app/auth/sms-code', { tenantId: TENANT, phone, purpose: 'register' });
  let code = '';
  await waitFor(b.page, 'the SMS record', async () => {
    const logs = await call<{ records: Array<{ logData?: string; title?: string; message?: string }> }>(demo, '/api/blade-log/usual/list?size=20');
    const text = JSON.stringify(logs.records);
    code = new RegExp(`${phone.slice(-4)}[^}]*?code[^0-9]*(\\d{6})`).exec(text)?.[1] ?? '';
    return code !== '';
  });
  const signedUp = await call<{ accessToken: string }>(null, '/api/app/auth/register', { tenantId: TENANT, phone, smsCode: code, password: md5('Owner#2026'), nickname: '王先生' });
  return signedUp.accessToken;
}

const beijing = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** Alipay's notification that the order was paid, signed (RSA2) with the key pair standing for Alipay's */
async function alipayPaid(no: string, total: string): Promise<string> {
  const now = new Date();
  const params: Record<string, string> = {
    notify_time: beijing(now), notify_type: 'trade_status_sync', notify_id: randomBytes(16).toString('hex'), app_id: ALIPAY_APP_ID, auth_app_id: ALIPAY_APP_ID,
    charset: 'utf-8', version: '1.0', trade_no: `2026${randomBytes(10).toString('hex')}`, out_trade_no: no, trade_status: 'TRADE_SUCCESS',
    total_amount: total, receipt_amount: total, buyer_pay_amount: total, gmt_create: beijing(now), gmt_payment: beijing(now),
  };
  const content = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&');
  params.sign = createSign('RSA-SHA256').update(content, 'utf8').sign(alipayKeys.privateKey, 'base64');
  params.sign_type = 'RSA2';
  const res = await fetch(`${b.baseUrl}/api/pay/notify/alipay/${TENANT}`, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: new URLSearchParams(params).toString(),
  });
  return res.text();
}

beforeAll(async () => {
  platform = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  demo = (await apiToken(b.baseUrl, TENANT, 'admin', 'admin'))!;
  const p = platformCalls(b.baseUrl, platform);
  const { typeId, productId, factoryId } = await simulatedProduct(p, 'AFS', 'E2EAFSPROD');
  const batch = await call<{ id: string }>(platform, `${IPC}/add-batch`, { batchNo: 'E2E-AFS-B1', factoryId, productId, cloudVendor: 1, quantity: 3, snPrefix: 'afsx' });
  const granted = await call<string[]>(platform, `/api/ymy-product/auth/get-auth-pt?tenantId=${TENANT}`);
  await call(platform, '/api/ymy-product/auth/save-auth-pt', { tenantId: TENANT, typeIds: [...granted, typeId].join(',') });
  await call(platform, '/api/ymy-product/deliver/submit', { productId, batchId: batch.id, customerTenantId: TENANT, quantity: 3, deliverTime: '2026-11-20 10:00:00' });

  // the demo tenant's SMS goes to the log (no provider here), its Alipay merchant is the test's key pairs
  const sms = await call<{ id: string }>(demo, '/api/blade-resource/sms/submit', { category: 9, smsCode: 'e2e-afs', templateId: 'SMS_E2E', signName: 'E2E' });
  await call(demo, `/api/blade-resource/sms/enable?id=${sms.id}`, {});
  const settings = await call<{ records: Array<{ id: string; channel: string }> }>(demo, '/api/ymy-system/setting/payment-setting/list');
  const alipay = settings.records.find((r) => r.channel === 'alipay')!;
  await call(demo, '/api/ymy-system/setting/payment-setting/submit', { id: alipay.id, enabled: 1, appId: ALIPAY_APP_ID, privateKey: appKeys.privateKey, publicKey: alipayKeys.publicKey });
  const plan = await call<{ id: string }>(demo, '/api/ymy-storage/price/submit', { planName: 'E2E 月卡', productTypeId: typeId, months: 1, storageDays: 7, price: 1990, currency: 'CNY' });

  ownerToken = await registerOwner(`1390000${String(Date.now() % 10_000).padStart(4, '0')}`);
  for (const i of [1, 2]) await appCall(ownerToken, '/api/app/device/bind', { deviceSn: SN(i) });
  await appCall(ownerToken, '/api/app/feedback/submit', {
    content: 'E2E 开锁后不能自动上锁', kind: 'fault', deviceSn: SN(1), appVersion: '3.2.1', images: ['/favicon.ico', '/favicon.ico?2'],
  });
  const placed = await appCall<{ orderNo: string }>(ownerToken, '/api/app/storage/order', { priceId: plan.id, deviceSn: SN(1), payChannel: 'alipay' });
  orderNo = placed.orderNo;
  expect(await alipayPaid(orderNo, '19.90')).toBe('success');
});

describe('after-sales', () => {
  it('answers a feedback in the reply drawer: the feedback is replied, and the app reads the reply', async () => {
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await signIn(b.page, b.baseUrl, TENANT);
    await openMenu(b.page, 'postsale', 'feedback');
    const row = tableRows(b.page).filter({ hasText: 'E2E 开锁后不能自动上锁' });
    await row.waitFor();
    expect(await row.innerText()).toContain('待回复');
    // its pictures, in the detail
    await clickRowAction(row, 'resource-row-view');
    await b.page.getByTestId('resource-detail').locator('img').nth(1).waitFor();
    expect(await b.page.getByTestId('resource-detail').locator('img').count()).toBe(2);
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('resource-detail').waitFor({ state: 'hidden' });
    await clickRowAction(row, 'resource-row-within-feedback_reply_list');
    const drawer = b.page.getByTestId('within-feedback_reply_list');
    await drawer.getByTestId('resource-add').click();
    await b.page.locator('#resource_content').fill('您好, 请在 APP 中开启自动上锁, 并将固件升级到 2.0。');
    await submitResourceForm(b.page);
    await drawer.getByTestId('resource-table').getByText('请在 APP 中开启自动上锁').waitFor();
    await b.page.keyboard.press('Escape');
    await waitFor(b.page, 'the feedback shown as replied', async () => (await row.innerText()).includes('已回复'));
    const mine = await appCall<Array<{ state: number; replies: Array<{ content: string }> }>>(ownerToken, '/api/app/feedback/list');
    expect(mine[0]).toMatchObject({ state: 1, replies: [{ content: '您好, 请在 APP 中开启自动上锁, 并将固件升级到 2.0。' }] });
  });
});

describe('service records', () => {
  it('asks for the new lock only on a replacement; the server refuses the old lock as the new one', async () => {
    await openMenu(b.page, 'postsale_record');
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_deviceSn').fill(SN(3));
    await pickOption(b.page, 'kind', '维修');
    await b.page.locator('#resource_description').fill('E2E 把手松动');
    expect(await b.page.locator('#resource_newDeviceSn').count()).toBe(0);
    await pickOption(b.page, 'kind', '换货');
    await b.page.locator('#resource_newDeviceSn').fill(SN(3).toLowerCase());
    // the same lock is refused by the server, on the field
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新设备 SN 不能与原设备相同');
    await pickOption(b.page, 'kind', '咨询');
    expect(await b.page.locator('#resource_newDeviceSn').count()).toBe(0);
    await submitResourceForm(b.page);
    const row = tableRows(b.page).filter({ hasText: SN(3) }).filter({ hasText: '咨询' });
    expect(await row.innerText()).toContain('待处理');
  });
});

describe('agreements', () => {
  it('a new version of the user agreement, written and published, is what /policy/user shows', async () => {
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    await openMenu(b.page, 'setting', 'agreement_setting');
    await tableRows(b.page).first().waitFor();
    await b.page.getByTestId('resource-add').click();
    await pickOption(b.page, 'type', '用户协议');
    await b.page.locator('#resource_title').fill('用户服务协议 (E2E 版)');
    await b.page.locator('#resource_version').fill('2026.12');
    const editor = b.page.getByTestId('richtext-content').first();
    await editor.click();
    await b.page.keyboard.type('E2E 版第一条: 门锁数据仅用于售后服务。');
    await submitResourceForm(b.page);
    const row = tableRows(b.page).filter({ hasText: '用户服务协议 (E2E 版)' });
    await clickRowAction(row, 'resource-row-action-agreement_setting_publish');
    await confirm(b.page);
    await toast(b.page, /发布/);
    const policy = await b.context.newPage();
    await policy.goto(`${b.baseUrl}/policy/user`);
    await policy.getByTestId('policy-title').getByText('用户服务协议 (E2E 版)').waitFor();
    expect(await policy.getByTestId('policy-content').innerText()).toContain('门锁数据仅用于售后服务');
    await policy.close();
  });
});

describe('cloud storage', () => {
  it('moves a paid order to the owner\'s other lock from the row\'s transfer dialog (en, 1280)', async () => {
    await b.page.setViewportSize({ width: 1280, height: 720 });
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, TENANT);
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('lang-en').click();
    await openMenu(b.page, 'storage', 'storage_order');
    const row = tableRows(b.page).filter({ hasText: orderNo });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(SN(1));
    expect(text).toContain('¥19.90');
    expect(text).toContain('Paid');
    // a lock the owner does not hold is refused by the server, and the dialog stays
    await clickRowAction(row, 'resource-row-action-storage_order_transfer');
    await b.page.getByTestId('resource-ask-input').fill(SN(3).toLowerCase());
    expect(await b.page.getByTestId('resource-ask-input').inputValue()).toBe(SN(3));
    await b.page.getByTestId('resource-ask-submit').click();
    await toast(b.page, `The lock ${SN(3)} is not one the order's user owns`);
    await b.page.getByTestId('resource-ask-input').fill(SN(2));
    await b.page.getByTestId('resource-ask-submit').click();
    await toast(b.page, `The remaining period moved to ${SN(2)}`);
    await waitFor(b.page, 'the row on the new lock', async () => (await row.innerText()).includes(SN(2)));
    const detail = await call<{ events: Array<{ action: string; fromSn: string; toSn: string }> }>(demo, `/api/ymy-storage/order/order-detail?id=${await row.getAttribute('data-row-key')}`);
    expect(detail.events.at(-1)).toMatchObject({ action: 'transferred', fromSn: SN(1), toSn: SN(2) });
  });
});
